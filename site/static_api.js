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
const post = (method, url, body) => new Promise((resolve) => {
	seq += 1;
	waiting.set(seq, resolve);
	worker.postMessage({ seq, method, url, body });
});
const isApi = (url) => typeof url === 'string' && url.startsWith('/api/');

const realFetch = window.fetch.bind(window);

// A published profile: a site folder with an open.json beside index.html,
// {"open": ["rank0.json.gz", "kernels.ncu-rep", ...]} (URLs relative to
// the page), opens those files at start, in that order (file ids 1, 2...),
// before the pages' first request is answered; without one (a 404) or on
// a file:// page (not asked) nothing is opened. A file that cannot
// be fetched or loaded is named in the page's error box.
const opened = (async () => {
	if (location.protocol === 'file:') return; // no server to list files
	const r = await realFetch('open.json', { cache: 'no-store' }).catch(() => null);
	if (!r?.ok) return;
	let list;
	try {
		list = (await r.json())?.open;
		if (!Array.isArray(list) || !list.every((u) => typeof u === 'string')) throw new Error('"open" is not a list of URLs');
	} catch (e) {
		showError(`open.json: ${e.message}`);
		return;
	}
	for (const u of list) {
		const name = decodeURIComponent(new URL(u, location.href).pathname.split('/').pop() || 'trace.json');
		try {
			const r = await realFetch(u);
			if (!r.ok) throw new Error(`HTTP ${r.status}`);
			const a = await post('POST', `/api/upload?name=${encodeURIComponent(name)}`, await r.blob());
			if (a.status !== 200) throw new Error(JSON.parse(a.body).error?.message ?? `status ${a.status}`);
		} catch (e) {
			showError(`open.json: could not open ${u}: ${e.message}`);
		}
	}
})();
function showError(text) {
	const box = document.getElementById('error');
	if (box) Object.assign(box, { textContent: text, hidden: false });
}
// Every request of the pages is announced as a 'gpuprof:api' event on
// window, detail {method, url (absolute)}: as there is no network request
// to watch, this is what tests (tests/web/harness.mjs onApi) and embedders
// see of the pages' API traffic.
const ask = async (method, url, body) => {
	await opened;
	window.dispatchEvent(new CustomEvent('gpuprof:api', { detail: { method, url: new URL(url, location.href).href } }));
	return post(method, url, body);
};
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
			showError(`Could not save ${a.download}: ${JSON.parse(r.body).error?.message ?? r.status}`);
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
