// engine_worker: the static site's engine in a Web Worker. It answers the
// requests of the viewer's pages (site/static_api.js forwards them) with
// the HTTP API's shapes (docs/viewer.md): GET /api/files, POST
// /api/upload?name=N (the body a File), DELETE /api/file/ID, GET
// /api/file/ID/ENDPOINT?QUERY, GET /api/diff?base=ID&new=ID and GET
// /api/dist?... An upload
// is loaded once (gp_site_open, src/wasm/site_api.c) and stays loaded: a
// trace's views (their answers kept, as the server keeps them), /timeline,
// /timeline/find and two traces' /api/diff are answered from it as the
// server answers them (its query parsing); what the engine leaves (status
// 0: other kinds, other endpoints) runs the command `VIEW FILE --format
// json --KEY VALUE...`. A file is never copied whole: WORKERFS reads it
// from the File in slices as the engine asks for bytes. Nothing leaves the
// page.
// (in the one-file page engine.js comes first in the same script: single.mjs)
if (typeof gpuprofEngine === 'undefined') importScripts('engine.js');

let out = [];
let err = [];
const engine = gpuprofEngine({
	noExitRuntime: true,
	print: (s) => out.push(s),
	printErr: (s) => err.push(s),
});
const files = []; // {id, name, bytes, events, kind, path, handle}
let nextId = 1;

const json = (status, body) => ({ status, body: JSON.stringify(body) });
const fail = (status, message) => json(status, { error: { message } });
const listed = (only) => ({ files: files.filter((f) => !only || f.id === only).map(({ id, name, bytes, events, kind }) => ({ id, name, bytes, events, kind })) });

// s as a C string on the engine's heap (free it with M._free)
function cstr(M, s) {
	const n = M.lengthBytesUTF8(s) + 1;
	const p = M._malloc(n);
	M.stringToUTF8(s, p, n);
	return p;
}

function kindOf(M, file) {
	const head = new Uint8Array(new FileReaderSync().readAsArrayBuffer(file.slice(0, 65536)));
	const p = M._malloc(head.length || 1);
	M.HEAPU8.set(head, p);
	const k = M.UTF8ToString(M._gp_site_kind(p, head.length));
	M._free(p);
	return k;
}

// Bytes read from the File's stream at a time: the engine parses one
// slice while the browser reads the next.
const SLICE = 4 << 20;

// Loads a plain PyTorch trace by pushing the File's bytes to the engine
// (gp_site_push_*, src/wasm/site_api.c) as its stream gives them, read
// into two buffers of our own that take turns: no copy of the file is
// left behind for the garbage collector, as FileReaderSync's slices are
// (the whole file's worth in a long import), and reading overlaps the
// parse. The file entry's handle, or 0 when the engine reads this file
// itself (another kind, gzip).
async function pushed(M, file, pp, np) {
	let reader;
	try {
		reader = file.stream().getReader({ mode: 'byob' });
	} catch {
		return 0; // a browser without byte streams from a Blob
	}
	const sp = M._gp_site_push_begin(pp, np, file.size);
	if (!sp) {
		reader.cancel().catch(() => {});
		return 0;
	}
	let spare = new ArrayBuffer(SLICE), failure = null;
	let next = reader.read(new Uint8Array(SLICE));
	try {
		for (;;) {
			const { done, value } = await next;
			if (done) break;
			next = reader.read(new Uint8Array(spare));
			const room = M._gp_site_push_room(sp, value.length);
			if (!room) break;
			M.HEAPU8.set(value, room); // HEAPU8 read after the call: the heap may have grown
			if (M._gp_site_push_data(sp, value.length)) break;
			spare = value.buffer;
		}
	} catch (x) {
		failure = x; // the File could not be read
	}
	next.catch(() => {});
	reader.cancel().catch(() => {});
	const handle = M._gp_site_push_end(sp);
	if (failure) {
		if (handle) M._gp_site_close(handle);
		throw new Error(`${file.name || 'the file'}: could not be read (${failure.message || failure})`);
	}
	return handle;
}

// Mounts and loads an upload: the file's entry, or throws the load's
// message (the mount undone). The mount stays: views the engine leaves,
// and the Timeline's downloads, read the file again by its path.
async function mount(M, file, name) {
	const id = nextId++;
	const dir = `/in${id}`;
	M.FS.mkdir(dir);
	M.FS.mount(M.WORKERFS, { files: [new File([file], name)] }, dir);
	const path = `${dir}/${name}`;
	const [pp, np] = [cstr(M, path), cstr(M, name)];
	let handle;
	try {
		handle = (await pushed(M, file, pp, np)) || M._gp_site_open(pp, np);
	} catch (x) {
		M.FS.unmount(dir);
		throw x;
	} finally {
		M._free(pp);
		M._free(np);
	}
	const msg = handle ? M._gp_site_error(handle) : 0;
	if (!handle || msg) {
		const text = handle ? M.UTF8ToString(msg) : 'out of memory';
		if (handle) M._gp_site_close(handle);
		M.FS.unmount(dir);
		throw new Error(text);
	}
	const events = M._gp_site_events(handle);
	const f = { id, name, bytes: file.size, events: events >= 0 ? events : null, kind: kindOf(M, file), path, handle };
	files.push(f);
	return f;
}

function run(M, args) {
	out = [];
	err = [];
	const rc = M.callMain(args);
	M._fflush(0);
	return { rc, out: out.length ? `${out.join('\n')}\n` : '', err: err.join('\n') }; // print() drops each line's newline
}

// GET /api/diff?base=ID&new=ID&...: two traces or two Nsight Compute
// reports compared (gp_site_diff)
function diff(M, u) {
	const side = (k) => files.find((x) => String(x.id) === u.searchParams.get(k));
	const [b, n] = [side('base'), side('new')];
	if (!b || !n) return fail(400, 'diff takes base=ID and new=ID, two loaded files of one kind (e.g. /api/diff?base=1&new=2)');
	const qp = cstr(M, u.search.slice(1));
	const status = M._gp_site_diff(b.handle, n.handle, qp);
	M._free(qp);
	if (status) return { status, body: M.UTF8ToString(M._gp_site_body(b.handle)) };
	return fail(404, 'the static site compares two PyTorch traces or two Nsight Compute reports: Nsight Systems files and pairs of two kinds are compared by gpuprof serve');
}

// GET /api/dist?...: the loaded files' distributed view (gp_site_dist,
// which picks the workers among them as the server does)
function dist(M, u) {
	const n = files.length;
	const hp = M._malloc(4 * (n || 1)), ip = M._malloc(4 * (n || 1)), sp = M._malloc(4);
	files.forEach((f, i) => {
		M.HEAP32[(hp >> 2) + i] = f.handle;
		M.HEAP32[(ip >> 2) + i] = f.id;
	});
	const qp = cstr(M, u.search.slice(1));
	const bp = M._gp_site_dist(hp, ip, n, qp, sp);
	const reply = bp ? { status: M.HEAP32[sp >> 2], body: M.UTF8ToString(bp) } : fail(500, 'out of memory');
	for (const p of [hp, ip, sp, qp, bp]) M._free(p);
	return reply;
}

async function answer(M, { method, url, body }) {
	const u = new URL(url, 'http://site');
	if (method === 'GET' && u.pathname === '/api/files') return json(200, listed(0));
	if (method === 'POST' && u.pathname === '/api/upload') {
		let f;
		try {
			f = await mount(M, body, u.searchParams.get('name') || 'trace.json');
		} catch (x) {
			return fail(400, x.message);
		}
		return json(200, listed(f.id));
	}
	if (method === 'GET' && u.pathname === '/api/diff') return diff(M, u);
	if (method === 'GET' && u.pathname === '/api/dist') return dist(M, u);
	const m = u.pathname.match(/^\/api\/file\/(\d+)(?:\/([a-z_-]+(?:\/[a-z_-]+)?))?$/);
	const f = m && files.find((x) => x.id === Number(m[1]));
	if (!f) return fail(404, `no such file or endpoint: ${u.pathname}`);
	if (method === 'DELETE' && !m[2]) {
		M._gp_site_close(f.handle);
		M.FS.unmount(`/in${f.id}`);
		files.splice(files.indexOf(f), 1);
		return json(200, listed(0));
	}
	if (method !== 'GET' || !m[2]) return fail(405, `${method} ${u.pathname} is not answered by the static site`);
	const [ep, qp] = [cstr(M, m[2]), cstr(M, u.search.slice(1))];
	const status = M._gp_site_get(f.handle, ep, qp);
	M._free(ep);
	M._free(qp);
	if (status) return { status, body: M.UTF8ToString(M._gp_site_body(f.handle)) };
	if (m[2].includes('/')) return fail(404, `no such file or endpoint: ${u.pathname}`);
	const args = [m[2], f.path, '--format', 'json'];
	for (const [k, v] of u.searchParams) args.push(`--${k}`, v);
	const r = run(M, args);
	if (r.rc !== 0) return fail(r.rc === 2 ? 422 : 400, (r.err.trim().split('\n').pop() || `exit ${r.rc}`).replace(/^gpuprof: (error: )?/, ''));
	return { status: 200, body: r.out };
}

// One request at a time, in their order: an upload awaits its reads, and
// the requests after it wait for it.
let queue = Promise.resolve();
onmessage = (e) => {
	queue = queue.then(async () => {
		let reply;
		try {
			reply = await answer(await engine, e.data);
		} catch (x) {
			reply = fail(500, String(x && x.message ? x.message : x));
		}
		postMessage({ seq: e.data.seq, ...reply });
	});
};
