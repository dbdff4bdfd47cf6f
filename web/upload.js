// upload: POST /api/upload with XMLHttpRequest, whose upload.onprogress
// fetch() does not have, and a progress bar in the header while it runs:
// percent and MB sent, then "reading…" once the body is sent and until the
// server answers (it reads the whole trace before it does); a Cancel
// button aborts. The bar's element keeps, after it hides, the last figures
// in data-pct / data-loaded / data-total (what a test reads back).

const MB = 1024 * 1024;

function bar() {
	let box = document.getElementById('upload-progress');
	if (box) return box;
	box = document.createElement('div');
	box.id = 'upload-progress';
	box.dataset.testid = 'upload-progress';
	box.hidden = true;
	const prog = document.createElement('progress');
	prog.max = 100;
	const text = document.createElement('span');
	text.className = 'upload-text';
	text.dataset.testid = 'upload-text';
	const cancel = document.createElement('button');
	cancel.textContent = 'Cancel';
	cancel.title = 'Stop the upload';
	cancel.dataset.testid = 'upload-cancel';
	box.append(prog, text, cancel);
	const open = document.querySelector('header label.button');
	if (open) open.before(box);
	else document.querySelector('header')?.append(box);
	return box;
}

const mb = (n) => (n / MB).toFixed(1);

// Resolves to the server's JSON answer, or null when the user cancelled;
// rejects with the server's error message (or a network error).
export function uploadFile(file) {
	const box = bar();
	const [prog, text, cancel] = box.children;
	const show = (loaded, total) => {
		const pct = total > 0 ? Math.floor((100 * loaded) / total) : 0;
		prog.value = pct;
		prog.removeAttribute('data-reading');
		text.textContent = `${file.name}: ${pct} % (${mb(loaded)} of ${mb(total)} MB)`;
		Object.assign(box.dataset, { pct: String(pct), loaded: String(loaded), total: String(total), state: 'sending' });
	};
	show(0, file.size);
	box.hidden = false;
	return new Promise((resolve, reject) => {
		const xhr = new XMLHttpRequest();
		const done = () => { box.hidden = true; cancel.onclick = null; };
		xhr.open('POST', `/api/upload?name=${encodeURIComponent(file.name)}`);
		xhr.responseType = 'text';
		xhr.upload.onprogress = (e) => show(e.loaded, e.lengthComputable ? e.total : file.size);
		xhr.upload.onload = () => {
			show(file.size, file.size);
			text.textContent = `${file.name}: reading…`;
			prog.removeAttribute('value'); // indeterminate
			box.dataset.state = 'reading';
		};
		xhr.onload = () => {
			done();
			let body = null;
			try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
			if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body);
			else reject(new Error(body?.error?.message || `HTTP ${xhr.status}`));
		};
		xhr.onerror = () => { done(); reject(new Error('the upload failed (network error)')); };
		xhr.onabort = () => { done(); box.dataset.state = 'cancelled'; resolve(null); };
		cancel.onclick = () => xhr.abort();
		xhr.send(file);
	});
}
