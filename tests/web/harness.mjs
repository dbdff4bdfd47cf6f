// harness: what every browser test file shares. startServer(files) runs
// `gpuprof serve -q --port 0 FILES...` and resolves to {url, stop()};
// launchBrowser() starts Debian's chromium headless through playwright-core;
// cliJson(args) runs `gpuprof ARGS --format json`; shot(page, name) saves a
// screenshot under build/web-artifacts/. GPUPROF = the binary.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, existsSync, statSync, createReadStream } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const gpuprof = path.resolve(root, process.env.GPUPROF || 'gpuprof');
export const artifacts = path.join(root, 'build/web-artifacts');
const chromePath = process.env.CHROMIUM || '/usr/bin/chromium';

export const cliJson = (...args) => JSON.parse(execFileSync(gpuprof, [...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
export const cliText = (...args) => execFileSync(gpuprof, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

// The backend the pages run on: GPUPROF_BACKEND=serve (the default:
// `gpuprof serve` answers the pages) or site (the static site, make site:
// the pages' requests answered by the WebAssembly engine in a Web Worker).
// In site mode startServer serves build/site/ with an open.json naming
// FILES, so the page opens them at start with the same ids, and forwards
// the requests a test itself sends to URL/api/ (its expected values) to a
// `gpuprof serve` of the same files: the native engine, not the page's.
export const backend = process.env.GPUPROF_BACKEND || 'serve';
const siteDir = path.join(root, 'build/site');
// For a test's {skip}: the reason it cannot run on the static site, in
// site mode; false (run it) on the server.
export const serveOnly = (reason) => (backend === 'site' ? `serve only: ${reason}` : false);
// The name the viewer knows the opened file F by: the path given to the
// server; its last part on the site (the page uploads it by name).
export const openedAs = (f) => (backend === 'site' ? path.basename(f) : f);

export async function startServer(files, extra = []) {
	const native = await startNative(files, extra);
	if (backend !== 'site') return native;
	try {
		return await startSite(files, native);
	} catch (e) {
		await native.stop();
		throw e;
	}
}

const siteTypes = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

// build/site/ at /, FILES at /open/N/NAME listed by /open.json, /api/ to
// the native server
async function startSite(files, native) {
	if (!existsSync(path.join(siteDir, 'index.html'))) throw new Error('GPUPROF_BACKEND=site: build/site/ is not built (make site)');
	for (const f of files) if (statSync(f).isDirectory()) throw new Error(`GPUPROF_BACKEND=site: ${f} is a directory, which the static site cannot open`);
	const names = files.map((f, i) => `open/${i + 1}/${encodeURIComponent(path.basename(f))}`);
	const up = new URL(native.url);
	const server = createServer((req, res) => {
		const p = new URL(req.url, 'http://x').pathname;
		if (p.startsWith('/api/')) {
			const fwd = httpRequest({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: { ...req.headers, host: up.host, ...(req.headers.origin ? { origin: up.origin } : {}) } }, (r) => {
				res.writeHead(r.statusCode, r.headers);
				r.pipe(res);
			});
			fwd.on('error', () => res.writeHead(502).end());
			req.pipe(fwd);
			return;
		}
		if (p === '/open.json') {
			res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ open: names }));
			return;
		}
		const at = names.indexOf(p.slice(1));
		const file = at >= 0 ? files[at] : path.join(siteDir, path.normalize(decodeURIComponent(p)).replace(/^\/+/, '') || 'index.html');
		if ((at < 0 && !file.startsWith(siteDir)) || !existsSync(file) || statSync(file).isDirectory()) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'Content-Type': siteTypes[path.extname(file)] || 'application/octet-stream' });
		createReadStream(file).pipe(res);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const stop = async () => {
		server.closeAllConnections();
		await new Promise((r) => server.close(r));
		await native.stop();
	};
	return { url: `http://127.0.0.1:${server.address().port}/`, stop, native };
}

async function startNative(files, extra) {
	const srv = spawn(gpuprof, ['serve', '-q', '--port', '0', ...extra, ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
	const url = await new Promise((resolve, reject) => {
		let out = '';
		const timer = setTimeout(() => reject(new Error(`server did not print its URL: ${out}`)), 20000);
		srv.stdout.on('data', (d) => {
			out += d;
			const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
			if (m) { clearTimeout(timer); resolve(m[0]); }
		});
		srv.on('exit', (c) => { clearTimeout(timer); reject(new Error(`server exited (${c}): ${out}`)); });
	});
	const stop = async () => {
		if (srv.exitCode !== null) return;
		const done = new Promise((r) => srv.on('exit', r));
		srv.kill('SIGTERM');
		await done;
	};
	return { url, stop };
}

export async function launchBrowser() {
	mkdirSync(artifacts, { recursive: true });
	// playwright gives the browser a new empty profile of its own
	return chromium.launch({
		executablePath: chromePath,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
	});
}

export async function newPage(browser) {
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
	page.setDefaultTimeout(10000);
	page.on('pageerror', (e) => { throw e; });
	if (backend === 'site') await watchApi(page);
	return page;
}

// The pages' API requests, alike on both backends, as objects with url()
// and method() (Playwright's Request on the server). On the server they
// are the browser's requests to /api/; on the site the adapter answers
// them in the page (no network request to see) and announces each as a
// 'gpuprof:api' event (site/static_api.js), which newPage forwards here.
const apiListeners = new WeakMap(); // page -> Set of fn(request)
async function watchApi(page) {
	const fns = new Set();
	apiListeners.set(page, fns);
	await page.exposeBinding('__gpuprofTestApi', (_src, method, url) => {
		const r = { url: () => url, method: () => method };
		for (const fn of [...fns]) fn(r);
	});
	await page.addInitScript(() => addEventListener('gpuprof:api', (e) => window.__gpuprofTestApi(e.detail.method, e.detail.url)));
}
const isApiRequest = (r) => new URL(r.url()).pathname.startsWith('/api/');
// fn(request) for each API request the page makes from now on, until
// the function it returns is called.
export function onApi(page, fn) {
	if (backend !== 'site') {
		const on = (r) => { if (isApiRequest(r)) fn(r); };
		page.on('request', on);
		return () => page.off('request', on);
	}
	const fns = apiListeners.get(page);
	if (!fns) throw new Error('onApi: the page was not made by newPage');
	fns.add(fn);
	return () => fns.delete(fn);
}
// The next API request for which pred(request) holds (page.waitForRequest
// on the server); rejects after the page's timeout.
export function waitForApi(page, pred) {
	if (backend !== 'site') return page.waitForRequest((r) => isApiRequest(r) && pred(r));
	const fns = apiListeners.get(page);
	if (!fns) return Promise.reject(new Error('waitForApi: the page was not made by newPage'));
	return new Promise((resolve, reject) => {
		const fn = (r) => {
			if (!pred(r)) return;
			fns.delete(fn);
			clearTimeout(timer);
			resolve(r);
		};
		const timer = setTimeout(() => { fns.delete(fn); reject(new Error('waitForApi: no such request within 10 s')); }, 10000);
		fns.add(fn);
	});
}

export const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });

// Polls attribute attr of the timeline's canvas until ok(value) (the
// page's CSP forbids waitForFunction); its value, or throws after ~5 s.
export async function untilCanvas(page, attr, ok) {
	const canvas = page.getByTestId('timeline-canvas');
	let v = null;
	for (let i = 0; i < 200; i++) {
		v = await canvas.getAttribute(attr).catch(() => null);
		if (v !== null && ok(v)) return v;
		await page.waitForTimeout(25);
	}
	throw new Error(`timeline: ${attr} is ${v}`);
}

// Opens u in page from a blank page: a hash change alone keeps the last
// view's elements (and their data-* attributes) until the new answer is
// drawn, so a wait on them could see the old ones.
export async function fresh(page, u) {
	await page.goto('about:blank');
	await page.goto(u);
}

// Polls fn until it returns without throwing (the page re-renders on its
// own time), at most ms; then throws fn's last error.
export async function retry(fn, ms = 8000) {
	const end = Date.now() + ms;
	for (;;) {
		try {
			return await fn();
		} catch (e) {
			if (Date.now() > end) throw e;
			await new Promise((r) => setTimeout(r, 50));
		}
	}
}

// The Operators table's rows as the page shows them: `gpuprof ops`' rows
// d.operators with, after the column it is sorted by (d.tree.sorted_by),
// each row's share of that column's sum, in percent (none when it sums to 0).
export function opsAsShown(d) {
	const key = `${d.tree.sorted_by}_ns`;
	const sum = d.operators.reduce((s, r) => s + (r[key] ?? 0), 0);
	if (!(sum > 0)) return d.operators;
	return d.operators.map((r) => Object.fromEntries(Object.entries(r).flatMap(([k, v]) =>
		(k === key ? [[k, v], [`${d.tree.sorted_by}_share_pct`, v === null ? null : (v * 100) / sum]] : [[k, v]]))));
}

