// bench/timeline.mjs: the Timeline's frame and window-request times on a
// big trace, in Debian's chromium (headless, through tests/web's
// playwright-core). Starts `gpuprof serve TRACE`, opens the Timeline (the
// whole trace; again with flows=1; prints its first window's request and
// frame), then 5 rounds of 36 keys (w w w w d d a
// a s s s s: zoom in, pan, zoom out), each key once its frame is drawn, a
// 150 ms pause every 6 keys so a window is asked and drawn; prints each
// round's 95th percentile (nearest rank) of the frames (a draw of the
// canvas) and of the window requests, then theirs over the 5 rounds (a
// round's p95 of 6 requests is their slowest), as the page measures them
// (web/timeline_perf.js). GPUPROF = the binary, BENCH_TRACE = the trace
// (default build/bench/synth-1G.json, made by `gpuprof synth --size 1G`).
// Run: GPUPROF=$PWD/gpuprof node bench/timeline.mjs
import { existsSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gpuprof, startServer, launchBrowser, newPage, untilCanvas } from '../tests/web/harness.mjs';

const trace = process.env.BENCH_TRACE || 'build/bench/synth-1G.json';
if (!existsSync(trace)) {
	mkdirSync('build/bench', { recursive: true });
	execFileSync(gpuprof, ['synth', '-q', '--size', '1G', '-o', trace], { stdio: 'inherit' });
}
const p95 = (v) => [...v].sort((a, b) => a - b)[Math.max(0, Math.ceil(0.95 * v.length) - 1)];
const server = await startServer([trace]);
const browser = await launchBrowser();
const page = await newPage(browser);
page.setDefaultTimeout(300000);
const canvas = page.getByTestId('timeline-canvas');
const attr = async (a) => canvas.getAttribute(a);
for (const extra of ['', '&flows=1']) {
	await page.goto('about:blank');
	await page.goto(`${server.url}#file=1&view=timeline${extra}`);
	// the first window (the whole trace) is in and drawn: data-requests is
	// set with it (data-items already by the empty draw before it)
	for (let i = 0; i < 3000 && !(await attr('data-requests').catch(() => null)); i++) await page.waitForTimeout(100);
	console.log(`timeline${extra || ' (flows off)'} page load: first window ${(await attr('data-request-ms'))} ms, its frame ${(await attr('data-frame-ms')).split(' ').pop()} ms`);
	await page.mouse.move(0, 0);
	await page.locator('h2').first().click();
	const allF = [], allQ = [];
	for (let r = 0; r < 5; r++) {
		const f0 = +(await attr('data-frames')), q0 = +(await attr('data-requests'));
		for (let i = 0; i < 36; i++) {
			const before = +(await attr('data-frames'));
			await page.keyboard.press('wwwwddaassss'[i % 12]);
			await untilCanvas(page, 'data-frames', (v) => +v > before);
			if (i % 6 === 5) await page.waitForTimeout(150);
		}
		await page.waitForTimeout(1000);
		const nf = +(await attr('data-frames')) - f0, nq = +(await attr('data-requests')) - q0;
		const fr = (await attr('data-frame-ms')).split(' ').map(Number).slice(-nf);
		const rq = (await attr('data-request-ms')).split(' ').map(Number).slice(-nq);
		allF.push(...fr); allQ.push(...rq);
		console.log(`timeline${extra || ' (flows off)'} round ${r + 1}: ${fr.length} frames p95 ${p95(fr).toFixed(1)} ms, ${rq.length} window requests p95 ${p95(rq).toFixed(1)} ms`);
	}
	console.log(`timeline${extra || ' (flows off)'} all rounds: ${allF.length} frames p95 ${p95(allF).toFixed(1)} ms, ${allQ.length} window requests p95 ${p95(allQ).toFixed(1)} ms`);
}
await browser.close();
await server.stop();
