// engine_worker: the static site's engine in a Web Worker. It answers the
// requests of the viewer's pages (site/static_api.js forwards them) with
// the HTTP API's shapes (docs/viewer.md): GET /api/files, POST
// /api/upload?name=N (the body a File), DELETE /api/file/ID, and GET
// /api/file/ID/VIEW?OPTIONS, answered by running the command `VIEW FILE
// --format json --OPTION VALUE...` on the WebAssembly engine. A file is
// never copied whole: WORKERFS reads it from the File in slices as the
// engine asks for bytes. Nothing leaves the page.
importScripts('engine.js');

let out = [];
let err = [];
const engine = gpuprofEngine({
	noExitRuntime: true,
	print: (s) => out.push(s),
	printErr: (s) => err.push(s),
});
const files = []; // {id, name, bytes, kind, path}
let nextId = 1;

// Answers of GET /api/file/ID/VIEW?..., by URL: a mounted File does not
// change and the engine's output depends on the file and the arguments
// only, so a repeated request (the pages ask for a view again when they
// render again) is answered without reading the file again. The oldest go
// first past CACHE_BYTES of answers; a file's go when it is removed.
const CACHE_BYTES = 64 << 20;
const cache = new Map(); // url -> body
let cached = 0;
function remember(url, body) {
	if (body.length > CACHE_BYTES) return;
	cache.set(url, body);
	cached += body.length;
	for (const [k, v] of cache) {
		if (cached <= CACHE_BYTES) break;
		cache.delete(k);
		cached -= v.length;
	}
}
function forget(id) {
	for (const [k, v] of cache) {
		if (new URL(k, 'http://site').pathname.startsWith(`/api/file/${id}/`)) {
			cache.delete(k);
			cached -= v.length;
		}
	}
}

const json = (status, body) => ({ status, body: JSON.stringify(body) });
const fail = (status, message) => json(status, { error: { message } });
const listed = (only) => ({ files: files.filter((f) => !only || f.id === only).map(({ id, name, bytes, kind }) => ({ id, name, bytes, events: null, kind })) });

function kindOf(M, file) {
	const head = new Uint8Array(new FileReaderSync().readAsArrayBuffer(file.slice(0, 65536)));
	const p = M._malloc(head.length || 1);
	M.HEAPU8.set(head, p);
	const k = M.UTF8ToString(M._gp_site_kind(p, head.length));
	M._free(p);
	return k;
}

function mount(M, file, name) {
	const id = nextId++;
	const dir = `/in${id}`;
	M.FS.mkdir(dir);
	M.FS.mount(M.WORKERFS, { files: [new File([file], name)] }, dir);
	const f = { id, name, bytes: file.size, kind: kindOf(M, file), path: `${dir}/${name}` };
	files.push(f);
	return f;
}

function run(M, args) {
	out = [];
	err = [];
	const rc = M.callMain(args);
	M._fflush(0);
	return { rc, out: out.join('\n'), err: err.join('\n') };
}

function answer(M, { method, url, body }) {
	const u = new URL(url, 'http://site');
	if (method === 'GET' && u.pathname === '/api/files') return json(200, listed(0));
	if (method === 'POST' && u.pathname === '/api/upload') {
		const f = mount(M, body, u.searchParams.get('name') || 'trace.json');
		return json(200, listed(f.id));
	}
	const m = u.pathname.match(/^\/api\/file\/(\d+)(?:\/([a-z_-]+))?$/);
	const f = m && files.find((x) => x.id === Number(m[1]));
	if (!f) return fail(404, `no such file or endpoint: ${u.pathname}`);
	if (method === 'DELETE' && !m[2]) {
		forget(f.id);
		M.FS.unmount(`/in${f.id}`);
		files.splice(files.indexOf(f), 1);
		return json(200, listed(0));
	}
	if (method !== 'GET' || !m[2]) return fail(405, `${method} ${u.pathname} is not answered by the static site`);
	const hit = cache.get(url);
	if (hit !== undefined) {
		cache.delete(url); // the most recent again
		cache.set(url, hit);
		return { status: 200, body: hit };
	}
	const args = [m[2], f.path, '--format', 'json'];
	for (const [k, v] of u.searchParams) args.push(`--${k}`, v);
	const r = run(M, args);
	if (r.rc !== 0) return fail(r.rc === 2 ? 422 : 400, (r.err.trim().split('\n').pop() || `exit ${r.rc}`).replace(/^gpuprof: (error: )?/, ''));
	remember(url, r.out);
	return { status: 200, body: r.out };
}

onmessage = async (e) => {
	const M = await engine;
	let reply;
	try {
		reply = answer(M, e.data);
	} catch (x) {
		reply = fail(500, String(x && x.message ? x.message : x));
	}
	postMessage({ seq: e.data.seq, ...reply });
};
