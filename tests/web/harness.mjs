// harness: what every browser test file shares. startServer(files) runs
// `gpuprof serve -q --port 0 FILES...` and resolves to {url, stop()};
// launchBrowser() starts Debian's chromium headless through playwright-core;
// cliJson(args) runs `gpuprof ARGS --format json`; shot(page, name) saves a
// screenshot under build/web-artifacts/. GPUPROF = the binary.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const gpuprof = path.resolve(root, process.env.GPUPROF || 'gpuprof');
export const artifacts = path.join(root, 'build/web-artifacts');
const chromePath = process.env.CHROMIUM || '/usr/bin/chromium';

export const cliJson = (...args) => JSON.parse(execFileSync(gpuprof, [...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
export const cliText = (...args) => execFileSync(gpuprof, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

export async function startServer(files, extra = []) {
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
	return page;
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

