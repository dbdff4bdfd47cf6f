// The Memory page on a curve longer than its level of detail: the page asks
// for `points` (the CLI's --curve-points), draws that reduced curve, and a
// zoomed window (here from the hash, as after a reload) asks for the
// window's curve at full detail. Values against `gpuprof memory --curve
// --curve-points N [--start A --end B] --format json` on a synthetic trace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gpuprof, cliJson, startServer, launchBrowser, newPage, shot, onApi } from './harness.mjs';

const { CURVE_POINTS } = await import('../../web/memory.js').catch(() => ({ CURVE_POINTS: 12000 }));
let dir, trace, server, browser, page;

before(async () => {
	dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-memlod-'));
	trace = path.join(dir, 'big.json');
	execFileSync(gpuprof, ['synth', '-q', '--size', '48M', '-o', trace]);
	server = await startServer([trace]);
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
	rmSync(dir, { recursive: true, force: true });
});

async function until(f, ok, what) {
	let v;
	for (let i = 0; i < 200; i++) {
		v = await f();
		if (ok(v)) return v;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error(`${what}: still ${JSON.stringify(v)}`);
}

test('the memory curve comes at a level of detail; a window is refined', async () => {
	const N = String(CURVE_POINTS);
	const lod = cliJson('memory', '--curve', '--curve-points', N, trace);
	const all = lod.memory.curve_points_all;
	assert.ok(all > CURVE_POINTS, `the trace's curve has ${all} points`);
	assert.ok(lod.curve.length <= CURVE_POINTS && lod.curve.length < all);
	const asked = [];
	onApi(page, (r) => { if (r.url().includes('curve=1')) asked.push(new URL(r.url()).search); });
	await page.goto(`${server.url}#file=1&view=memory`);
	const canvas = page.getByTestId('memory-curve');
	await until(() => canvas.getAttribute('data-points'), (v) => v === String(lod.curve.length), 'overview points');
	assert.ok(asked.some((q) => q.includes(`points=${N}`)), asked.join(' '));
	// a window of 1/50 of the curve in its middle, as a reload of a zoomed page
	const t0 = lod.curve[0].time_ns, t1 = lod.curve.at(-1).time_ns;
	const a = t0 + Math.floor((t1 - t0) * 0.49), b = t0 + Math.floor((t1 - t0) * 0.51);
	const fine = cliJson('memory', '--curve', '--curve-points', N, '--start', String(a), '--end', String(b), trace);
	const inWin = (pts) => pts.filter((p) => p.time_ns >= a && p.time_ns <= b).length;
	assert.ok(fine.curve.length > inWin(lod.curve), 'the window has more detail than the overview');
	await page.goto(`${server.url}#file=1&view=memory&start=${a}&end=${b}`);
	await page.reload();
	await until(() => canvas.getAttribute('data-detail'), (v) => v === `${a}-${b}`, 'refined window');
	assert.equal(await canvas.getAttribute('data-points'), String(inWin(fine.curve)));
	assert.ok(asked.some((q) => q.includes(`start_ns=${a}`) && q.includes(`end_ns=${b}`) && q.includes(`points=${N}`)), asked.join(' '));
	await shot(page, 'memory-lod');
});
