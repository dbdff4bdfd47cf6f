// Browser tests of the fleet part of the Distributed page (web/fleet.js):
// `gpuprof serve DIR` of a directory of rank summaries of a synthetic fleet
// with known anomalies, plus one rank's trace. 4 ranks, 3 steps (3, 4, 5);
// rank 1 is a straggler (`--straggler 1:+20ms` on every rank: it starts
// each step's first all-reduce 20 ms late, the others wait for it); rank 2
// alone has `--slow-step 5=9ms` (its step 5 ends 9 ms later, the last step:
// nothing after it moves). So, by hand: the hottest step-time cell is
// (rank2, step 5), 9,000,000 ns longer than the other ranks' step 5; in the
// waiting-time map rank 1 waits 0 at every step (the others wait for it),
// the coldest cell of every column; stragglers' first row is rank1; the
// worst skew instances' last rank is rank1. The values are read from the
// canvas's pixels and from the hover and keyboard texts, and compared with
// sums the test makes itself from the summaries' own "steps".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gpuprof, startServer, launchBrowser, newPage, shot, retry, serveOnly } from './harness.mjs';

const notHere = serveOnly('a directory of rank summaries');

let browser, page, dir, server;

before(async () => {
	if (notHere) return;
	dir = mkdtempSync(path.join(os.tmpdir(), 'gpuprof-fleet-web-'));
	mkdirSync(path.join(dir, 'sums'));
	mkdirSync(path.join(dir, 'tr'));
	for (let r = 0; r < 4; r++) {
		const t = path.join(dir, 'tr', `rank${r}.json`);
		execFileSync(gpuprof, ['-q', 'synth', '--ranks', '4', '--rank', String(r), '--steps', '3', '--straggler', '1:+20ms',
			...(r === 2 ? ['--slow-step', '5=9ms'] : []), '-o', t]);
		execFileSync(gpuprof, ['-q', 'rank-summary', t, '-o', path.join(dir, 'sums', `rank${r}.json`)]);
	}
	server = await startServer([path.join(dir, 'sums'), path.join(dir, 'tr', 'rank1.json')]);
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

// the summaries' own step lengths: Σ of the four parts, by "rankR\tstep"
function stepTimes() {
	const m = new Map();
	for (let r = 0; r < 4; r++) {
		const s = JSON.parse(readFileSync(path.join(dir, 'sums', `rank${r}.json`), 'utf8'));
		for (const st of s.steps) m.set(`rank${r}\t${st.step}`, st.computation + st.overlap + st.communication + st.other);
	}
	return m;
}

const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// the colour of each cell's centre, and the legend's two ends, as [r, g, b]
async function pixels() {
	return page.evaluate(() => {
		const c = document.querySelector('[data-testid="fleet-heat"]');
		const g = c.getContext('2d');
		const { left, top, cellW, cellH } = c.dataset;
		const workers = c.dataset.workers.split('\n'), steps = c.dataset.steps.split(',');
		const at = (ctx, x, y) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
		const cells = workers.map((w, i) => steps.map((s, j) => at(g, +left + j * +cellW + +cellW / 2, +top + i * +cellH + +cellH / 2)));
		const l = document.querySelector('[data-testid="fleet-heat-legend"]');
		const lg = l.getContext('2d');
		return { workers, steps, cells, low: at(lg, 0, 6), high: at(lg, l.width - 1, 6), mode: c.dataset.mode };
	});
}
const dist2 = (a, b) => a.reduce((s, x, i) => s + (x - b[i]) ** 2, 0);

test('a directory of rank summaries: heat maps, stragglers, skew, a link to the trace', { skip: notHere }, async () => {
	await page.goto(`${server.url}#view=dist`);
	await page.getByTestId('fleet-heat').waitFor();
	// the workers are the four summaries (the trace is for the links)
	assert.deepEqual(await page.getByTestId('fleet-heat').evaluate((c) => c.dataset.workers.split('\n')), ['rank0', 'rank1', 'rank2', 'rank3']);
	const times = stepTimes();
	// step time: the hottest cell is (rank2, step 5), the legend's high end
	let p = await pixels();
	assert.equal(p.mode, 'step');
	assert.deepEqual(p.steps, ['3', '4', '5']);
	let hot = null, best = Infinity;
	p.cells.forEach((row, i) => row.forEach((c, j) => { const d = dist2(c, p.high); if (d < best) { best = d; hot = [p.workers[i], p.steps[j]]; } }));
	assert.deepEqual(hot, ['rank2', '5']);
	assert.ok(best <= 3, `the hottest cell is the scale's end: ${best}`);
	assert.equal(times.get('rank2\t5') - times.get('rank0\t5'), 9000000);
	assert.equal(await page.getByTestId('fleet-heat-high').textContent(), `${grouped(times.get('rank2\t5'))} ns (${(times.get('rank2\t5') / 1e6).toFixed(3)} ms)`);
	// hover over (rank2, step 5): its value, computed here from the summary
	await page.getByTestId('fleet-heat').scrollIntoViewIfNeeded();
	const box = await page.getByTestId('fleet-heat').boundingBox();
	const geo = await page.getByTestId('fleet-heat').evaluate((c) => ({ ...c.dataset, w: c.width }));
	const k = box.width / geo.w;
	await page.mouse.move(box.x + k * (+geo.left + 2 * +geo.cellW + +geo.cellW / 2), box.y + k * (+geo.top + 2 * +geo.cellH + +geo.cellH / 2));
	await retry(async () => assert.equal(await page.getByTestId('fleet-heat-tip').textContent(),
		`rank2, step 5: step time ${grouped(times.get('rank2\t5'))} ns (${(times.get('rank2\t5') / 1e6).toFixed(3)} ms)`));
	// the keyboard: focus, then the arrows walk the cells from (rank0, step 3)
	await page.getByTestId('fleet-heat').focus();
	for (const key of ['ArrowRight', 'ArrowDown', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
	assert.equal(await page.getByTestId('fleet-heat-cursor').textContent(),
		`rank2, step 4: step time ${grouped(times.get('rank2\t4'))} ns (${(times.get('rank2\t4') / 1e6).toFixed(3)} ms)`);
	assert.match(await page.evaluate(() => location.hash), /view=dist/); // the arrows stayed on the map
	// stragglers: rank1 first, 3 instances last, 3 x 3 x 20 ms waited for it
	const first = await page.getByTestId('table-dist-stragglers').locator('tbody tr').first().locator('td').allTextContents();
	assert.equal(first[0], 'rank1');
	assert.equal(first[3], '3');
	await shot(page, 'fleet-step');

	// waiting time: rank1 (the straggler) waits for nobody: the coldest of every step
	await page.getByTestId('fleet-heat-toggle').click();
	await retry(async () => assert.equal((await pixels()).mode, 'wait'));
	assert.match(await page.evaluate(() => location.hash), /heat=wait/);
	p = await pixels();
	for (let j = 0; j < p.steps.length; j++) {
		const col = p.cells.map((row) => dist2(row[j], p.low));
		assert.equal(p.workers[col.indexOf(Math.min(...col))], 'rank1', `step ${p.steps[j]}`);
		assert.ok(Math.min(...col) <= 3);
	}
	assert.equal(await page.getByTestId('fleet-heat-low').textContent(), '0 ns (0.000 ms)');
	await shot(page, 'fleet-wait');

	// skew: the worst instance (call 0, step 3, rank1 last); a click opens
	// that call in rank1's trace: its timeline, the first of its 18
	// nccl:all_reduce (6 buckets x 3 steps)
	const row = page.getByTestId('table-dist-skew').locator('tbody tr').first();
	const cells = await row.locator('td').allTextContents();
	assert.equal(cells[0], 'nccl:all_reduce');
	assert.equal(cells[2], '0');
	assert.equal(cells[9], 'rank1');
	await row.click();
	await retry(async () => assert.match(await page.evaluate(() => location.hash), /^#file=5&view=timeline&find=nccl%3Aall_reduce&match=1(&|$)/));
	await retry(async () => assert.equal(await page.getByTestId('timeline-search-count').textContent(), '1 of 18'), 15000);
	// the window the timeline centred holds that call: its start from the
	// trace's first event, read from the trace's own text
	const h = await retry(async () => {
		const x = Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));
		assert.ok(x.start !== undefined && x.end !== undefined);
		return x;
	});
	const text = readFileSync(path.join(dir, 'tr', 'rank1.json'), 'utf8');
	const us = (line) => Number(line.match(/"ts": ([0-9.]+)/)[1]);
	const lines = text.split('\n').filter((l) => /"ts": [0-9.]+/.test(l));
	const t0 = Math.min(...lines.map(us));
	const call = us(lines.find((l) => l.includes('"name": "nccl:all_reduce"')));
	const rel = Math.round((call - t0) * 1000);
	assert.ok(+h.start <= rel && rel <= +h.end, `call at ${rel} ns, window ${h.start}..${h.end}`);
});
