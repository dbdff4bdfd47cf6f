// static_api: the viewer's pages without a server. Loaded before app.js
// by the static site's index.html (make site), it answers the pages'
// /api/ requests (fetch, and the XMLHttpRequest of upload.js) from the
// engine in a Web Worker (engine_worker.js), with the HTTP API's
// request and response shapes, so the pages themselves are unchanged.
const worker = new Worker('engine_worker.js');
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
