// static_api: the viewer's pages without a server. Loaded before app.js
// by the static site's index.html (make site), it answers the pages'
// /api/ requests (fetch, and the XMLHttpRequest of upload.js) from the
// engine in a Web Worker (engine_worker.js), with the HTTP API's
// request and response shapes, so the pages themselves are unchanged.
// (the one-file page, gpuprof.html, starts it from a Blob: site/single.mjs)
const worker = new Worker(window.gpWorkerUrl || 'engine_worker.js');
const waiting = new Map();
let seq = 0;
worker.onmessage = (e) => {
	const done = waiting.get(e.data.seq);
	waiting.delete(e.data.seq);
	done?.(e.data);
};
const ask = (method, url, body) => new Promise((resolve) => {
	seq += 1;
	waiting.set(seq, resolve);
	worker.postMessage({ seq, method, url, body });
});
const isApi = (url) => typeof url === 'string' && url.startsWith('/api/');

const realFetch = window.fetch.bind(window);
window.fetch = async (input, init = {}) => {
	if (!isApi(input)) return realFetch(input, init);
	const r = await ask((init.method || 'GET').toUpperCase(), input, init.body);
	return new Response(r.body, { status: r.status, headers: { 'Content-Type': 'application/json' } });
};

// upload.js: POST /api/upload?name=N with the File as the body; progress
// and load events as an upload's (the file is not sent anywhere: the
// worker reads it where it is)
const open = XMLHttpRequest.prototype.open;
const send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.open = function (method, url, ...rest) {
	this.gpApi = isApi(url) ? { method, url } : null;
	return open.call(this, method, url, ...rest);
};
XMLHttpRequest.prototype.send = function (body) {
	if (!this.gpApi) return send.call(this, body);
	const size = body?.size ?? 0;
	this.upload.onprogress?.({ loaded: size, total: size, lengthComputable: true });
	this.upload.onload?.();
	ask(this.gpApi.method, this.gpApi.url, body).then((r) => {
		Object.defineProperty(this, 'status', { value: r.status });
		Object.defineProperty(this, 'responseText', { value: r.body });
		this.onload?.();
	});
};

// A download link to the API (the Timeline's Download trace: an <a
// download> the page clicks): the worker's answer saved as a file of that
// name, as a browser saves the server's answer
document.addEventListener('click', (e) => {
	const a = e.target instanceof Element ? e.target.closest('a[download]') : null;
	const href = a?.getAttribute('href');
	if (!isApi(href) || a.dataset.gpSaved) return;
	e.preventDefault();
	ask('GET', href).then((r) => {
		if (r.status !== 200) {
			const box = document.getElementById('error');
			if (box) Object.assign(box, { textContent: `Could not save ${a.download}: ${JSON.parse(r.body).error?.message ?? r.status}`, hidden: false });
			return;
		}
		const url = URL.createObjectURL(new Blob([r.body], { type: 'application/json' }));
		const save = Object.assign(document.createElement('a'), { href: url, download: a.download });
		save.dataset.gpSaved = '1';
		document.body.append(save);
		save.click();
		save.remove();
		setTimeout(() => URL.revokeObjectURL(url), 60000);
	});
}, true);
