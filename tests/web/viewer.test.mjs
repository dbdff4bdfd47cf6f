// Browser tests of the gpuprof viewer: starts `gpuprof serve` on a free
// loopback port with examples/resnet_like.json.gz, drives Debian's chromium
// (headless, through playwright-core) and checks what a user sees against
// `gpuprof ... --format json` on the same file. Screenshots go to
// build/web-artifacts/. Run by tests/web/run.sh (GPUPROF = the binary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, gpuprof, shot as shotOf, onApi, serveOnly } from './harness.mjs';
import { serving } from './serving.mjs';
import { checkOverview } from './overview.mjs';

const fixture = path.join(root, 'examples/resnet_like.json.gz');

const cli = (...args) => JSON.parse(execFileSync(gpuprof, [...args, '--format', 'json', fixture], { encoding: 'utf8' }));
const cliText = (...args) => execFileSync(gpuprof, [...args, fixture], { encoding: 'utf8' });

let server, url, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); url = server.url; } });

const shot = (name) => shotOf(page, name);

test('overview shows the summary numbers', async () => {
	await page.goto(url);
	await checkOverview(page, cli('summary'), cliText('summary'));
	await shot('overview');
	await page.emulateMedia({ colorScheme: 'dark' });
	await page.click('#theme');
	assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
	await shot('overview-dark');
	await page.click('#theme');
});

test('operators table sorts and searches', async () => {
	const want = cli('ops').operators;
	await page.goto(`${url}#file=1&view=ops`);
	const table = page.getByTestId('table-operators');
	await table.locator('tbody tr').first().waitFor();
	const names = () => table.locator('tbody tr td:first-child').allTextContents();
	// the server's order (device self time, as `gpuprof ops`)
	assert.deepEqual(await names(), want.map((r) => r.name));
	// sort by calls: descending, ties in the server's order
	await table.locator('th[data-key=calls]').click();
	const byCalls = want.map((r, i) => [r, i]).sort((a, b) => b[0].calls - a[0].calls || a[1] - b[1]).map((x) => x[0].name);
	assert.deepEqual(await names(), byCalls);
	assert.match(await page.evaluate(() => location.hash), /sort=calls/);
	// again: ascending
	await table.locator('th[data-key=calls]').click();
	const asc = want.map((r, i) => [r, i]).sort((a, b) => a[0].calls - b[0].calls || a[1] - b[1]).map((x) => x[0].name);
	assert.deepEqual(await names(), asc);
	// search narrows the rows to the names containing the text
	await page.getByTestId('search-operators').fill('conv');
	const hits = want.filter((r) => r.name.toLowerCase().includes('conv'));
	assert.ok(hits.length > 0);
	assert.deepEqual((await names()).sort(), hits.map((r) => r.name).sort());
	// a row's values are the CLI's text rendering
	const first = hits.find((r) => r.name === (hits.map((h) => h).sort((a, b) => a.calls - b.calls)[0].name));
	const cells = await table.locator('tbody tr').first().locator('td').allTextContents();
	assert.equal(cells[0], first.name);
	assert.equal(cells[1], String(first.calls));
	await shot('operators');
	// the state survives a reload (URL hash)
	await page.reload();
	await table.locator('tbody tr').first().waitFor();
	assert.equal(await page.getByTestId('search-operators').inputValue(), 'conv');
	assert.deepEqual((await names()).sort(), hits.map((r) => r.name).sort());
});

test('kernels and memory pages render', async () => {
	const kernels = cli('kernels').kernels;
	await page.goto(`${url}#file=1&view=kernels`);
	const table = page.getByTestId('table-kernels');
	await table.locator('tbody tr').first().waitFor();
	assert.equal(await table.locator('tbody tr').count(), kernels.length);
	await shot('kernels');
	const mem = cli('memory');
	await page.goto(`${url}#file=1&view=memory`);
	await page.getByTestId('memory-curve').waitFor();
	await page.getByTestId('table-memory').locator('tbody tr').first().waitFor();
	assert.equal(await page.getByTestId('table-memory').locator('tbody tr').count(), mem.operators.length);
	await page.waitForTimeout(100);
	await shot('memory');
});

test('keyboard shortcuts: help overlay and view keys', async () => {
	await page.goto(`${url}#file=1&view=overview`);
	await page.getByTestId('card-steps').waitFor();
	await page.locator('h1').click(); // focus the page, not a field
	await page.keyboard.press('?');
	await page.getByTestId('help').waitFor({ state: 'visible' });
	await shot('help');
	await page.keyboard.press('Escape');
	await page.getByTestId('help').waitFor({ state: 'hidden' });
	await page.keyboard.press('2');
	await page.getByTestId('table-operators').waitFor();
	assert.match(await page.evaluate(() => location.hash), /view=ops/);
});

test('a bad upload shows the error text; a good one is added', async () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-web-'));
	const bad = path.join(dir, 'notes.txt');
	writeFileSync(bad, 'this is not a trace\n');
	await page.goto(url);
	await page.getByTestId('card-steps').waitFor();
	await page.getByTestId('upload').setInputFiles(bad);
	const err = page.getByTestId('error');
	await err.waitFor({ state: 'visible' });
	const text = await err.textContent();
	assert.match(text, /Could not load notes\.txt: notes\.txt at byte 0: expected a trace/);
	await shot('upload-error');
	await page.keyboard.press('Escape');
	await err.waitFor({ state: 'hidden' });
	const good = path.join(root, 'tests/golden/_inputs/memory.json');
	await page.getByTestId('upload').setInputFiles(good);
	// (locators, not waitForFunction: the page's CSP forbids eval)
	await page.locator('#file option').nth(1).waitFor({ state: 'attached' });
	assert.deepEqual(await page.locator('#file option').allTextContents(), ['resnet_like.json.gz', 'memory.json']);
	rmSync(dir, { recursive: true, force: true });
});

test('the Nsight Compute page shows the report\'s kernels, sections and hints', async () => {
	// a server of its own, with the report of tests/ncu/mkreport.py
	const rep = path.join(root, 'tests/golden/_inputs/tiny.ncu-rep');
	const ncu = (...args) => JSON.parse(execFileSync(gpuprof, ['ncu', ...args, '--format', 'json', rep], { encoding: 'utf8' }));
	const srv = spawn(gpuprof, ['serve', '-q', '--port', '0', rep], { stdio: ['ignore', 'pipe', 'inherit'] });
	try {
		const u = await new Promise((resolve, reject) => {
			let out = '';
			srv.stdout.on('data', (d) => { out += d; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
			srv.on('exit', (c) => reject(new Error(`server exited (${c}): ${out}`)));
		});
		const list = ncu('list').kernels;
		await page.goto(u);
		const items = page.getByTestId('ncu-kernel');
		await items.first().waitFor();
		assert.match(await page.evaluate(() => location.hash), /view=ncu/);
		const names = await items.locator('.kname').allTextContents();
		assert.deepEqual(names.map((t) => t.replace(/^\S+\s+/, '')), list.map((k) => k.kernel));
		assert.deepEqual(await items.locator('.badge').allTextContents(), list.map((k) => k.type));
		assert.match(await items.first().locator('.kmeta').textContent(), new RegExp(`grid \\(4, 2, 1\\) · block \\(128, 1, 1\\) · 1\\.536 us`));
		// the Speed Of Light section: the CLI's metric rows, value for value
		const det = ncu('details', '--id', '0').details;
		const sol = det.filter((r) => r.rule === null && r.section === 'GPU Speed Of Light Throughput');
		await page.locator('[data-testid=ncu-section-tab][data-name="GPU Speed Of Light Throughput"]').click();
		const rows = page.getByTestId('table-ncu-metrics').locator('tbody tr');
		await rows.first().waitFor();
		const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
		assert.deepEqual(cells, sol.map((r) => [r.item ?? '-', r.metric, r.unit, r.value]));
		// its rule result, with the estimated speedup
		const rule = det.find((r) => r.rule !== null);
		const rules = await page.getByTestId('ncu-rules').locator('li').allTextContents();
		assert.equal(rules.length, 1);
		assert.ok(rules[0].includes(rule.rule) && rules[0].includes(`est. speedup ${rule.speedup_pct} % (global)`), rules[0]);
		// session panel and hints table
		assert.match(await page.getByTestId('ncu-session-info').textContent(), /ncu --set basic -o tiny \.\/tiny/);
		const hints = ncu('hints').hints;
		assert.equal(await page.getByTestId('table-hints').locator('tbody tr').count(), hints.length);
		await page.getByTestId('table-hints').locator('th[data-key=speedup_pct]').click();
		assert.match(await page.evaluate(() => location.hash), /sort=speedup_pct/);
		// search narrows the sidebar
		await page.getByTestId('ncu-search').fill('no-such-kernel');
		assert.equal(await items.count(), 0);
		await page.getByTestId('ncu-search').fill('');
		await shot('ncu');
	} finally {
		const done = new Promise((r) => srv.on('exit', r));
		srv.kill('SIGTERM');
		await done;
	}
});

test('the Timeline page draws the lanes and zooming asks for the new window', async () => {
	const api = async (q) => JSON.parse(await page.evaluate(async (u) => (await fetch(u)).text(), `${url}api/file/1/timeline${q}`));
	await page.goto(`${url}#file=1&view=timeline`);
	const canvas = page.getByTestId('timeline-canvas');
	// polls an attribute of the canvas from here (the page's CSP forbids
	// waitForFunction's eval)
	const until = async (attr, ok) => {
		for (let i = 0; i < 200; i++) {
			const v = await canvas.getAttribute(attr).catch(() => null);
			if (v !== null && ok(v)) return v;
			await page.waitForTimeout(25);
		}
		throw new Error(`timeline: ${attr} never changed`);
	};
	await until('data-lanes', () => true);
	const whole = await api('?px=100');
	const T = whole.timeline.end_ns;
	assert.ok(whole.lanes.length > 0);
	assert.equal(await canvas.getAttribute('data-lanes'), String(whole.lanes.length));
	assert.equal(await canvas.getAttribute('data-start'), '0');
	assert.equal(await canvas.getAttribute('data-end'), String(T));
	assert.ok(Number(await canvas.getAttribute('data-items')) > 0);
	await shot('timeline');
	// a wheel step at the middle zooms in by 0.8 around it
	const asked = [];
	onApi(page, (r) => { if (r.url().includes('/timeline?')) asked.push(new URL(r.url()).searchParams); });
	await page.waitForTimeout(200); // the answer at the laid-out width
	const box = await canvas.boundingBox();
	await page.mouse.move(box.x + box.width / 2, box.y + 5);
	await page.mouse.wheel(0, -100);
	await until('data-end', (v) => v !== String(T));
	const h = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
	const start = Number(h.get('start')), end = Number(h.get('end'));
	const mid = T / 2;
	assert.equal(end - start, Math.round(mid + (T - mid) * 0.8) - Math.round(mid - mid * 0.8));
	assert.ok(Math.abs(start - (mid - mid * 0.8)) <= 1, `start ${start}`);
	assert.equal(await canvas.getAttribute('data-start'), String(start));
	assert.equal(await canvas.getAttribute('data-end'), String(end));
	const last = asked[asked.length - 1];
	assert.equal(last.get('start_ns'), String(start));
	assert.equal(last.get('end_ns'), String(end));
	// one column per pixel of the lanes' box
	assert.equal(last.get('px'), String(await page.evaluate(() => document.querySelector('.tl-wrap').clientWidth)));
	// the answer drawn is the server's for that window
	const zoomed = await api(`?start_ns=${start}&end_ns=${end}&px=${last.get('px')}`);
	// (items: its events drawn one by one and its merged spans, columns)
	assert.equal(await canvas.getAttribute('data-items'), String(zoomed.lanes.reduce((n, l) => n + l.items.length + l.spans.ts.length, 0)));
	// + halves the window around its middle; a reload keeps it
	await page.keyboard.press('+');
	await until('data-end', (v) => v !== String(end));
	const h2 = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
	assert.ok(Math.abs((Number(h2.get('end')) - Number(h2.get('start'))) - (end - start) / 2) <= 1);
	await page.reload();
	await until('data-end', (v) => v === h2.get('end'));
	// a click on a drawn event (the first lane's depth 0, under its header
	// and, when it has instants in the window, their 10 px row) shows its details
	const lane0 = (await api(`?start_ns=${h2.get('start')}&end_ns=${h2.get('end')}&px=100`)).lanes[0];
	await canvas.click({ position: { x: 5, y: 18 + (lane0.instant_events > 0 ? 10 : 0) + 8 } });
	await page.getByTestId('timeline-event').waitFor();
	await shot('timeline-zoomed');
});

test('the Steps page shows gpuprof steps\' rows and a bar per step', async () => {
	const want = cli('steps').steps;
	await page.goto(`${url}#file=1&view=steps`);
	const table = page.getByTestId('table-steps');
	await table.locator('tbody tr').first().waitFor();
	// every row, cell for cell, is the CLI's row as the page formats it
	const { fmt } = await import('../../web/fmt.js');
	const cols = Object.keys(want[0]);
	assert.deepEqual(await table.locator('th').evaluateAll((ths) => ths.map((t) => t.dataset.key)), cols);
	const cells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
	assert.deepEqual(cells, want.map((r) => cols.map((c) => fmt(c, r[c]))));
	// one stacked bar per step, one rect per part
	const chart = page.getByTestId('steps-chart');
	assert.deepEqual(await chart.locator('g').evaluateAll((gs) => gs.map((g) => g.dataset.step)), want.map((r) => r.step));
	const parts = cols.filter((c) => c.endsWith('_ns') && !['start_ns', 'end_ns', 'total_ns'].includes(c));
	assert.equal(await chart.locator('rect').count(), want.length * parts.length);
	// sorting by total: the state goes to the hash and survives a reload
	await table.locator('th[data-key=total_ns]').click();
	const byTotal = want.map((r, i) => [r, i]).sort((a, b) => b[0].total_ns - a[0].total_ns || a[1] - b[1]).map((x) => x[0].step);
	const steps = () => table.locator('tbody tr td:first-child').allTextContents();
	assert.deepEqual(await steps(), byTotal);
	assert.match(await page.evaluate(() => location.hash), /view=steps.*sort=total_ns/);
	await page.reload();
	await table.locator('tbody tr').first().waitFor();
	assert.deepEqual(await steps(), byTotal);
	// the CSV is the API's columns and raw numbers
	const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-steps').click()]);
	const csv = (await (await dl.createReadStream()).toArray()).join('');
	assert.equal(csv.split('\n')[0], cols.join(','));
	assert.equal(csv.trim().split('\n').length, want.length + 1);
	await shot('steps');
});

test('the Nsight Systems page shows the export\'s tables', async () => {
	// a server of its own, with the tiny export of tests/nsys/check_sqlite.py
	const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-web-'));
	const db = path.join(dir, 'tiny.sqlite');
	execFileSync('python3', ['-c', 'import sys; sys.path.insert(0, sys.argv[1]); import check_sqlite; check_sqlite.make_tiny(sys.argv[2], True)',
		path.join(root, 'tests/nsys'), db]);
	const nsys = (v) => JSON.parse(execFileSync(gpuprof, ['nsys', db, v, '--format', 'json'], { encoding: 'utf8' }));
	const srv = spawn(gpuprof, ['serve', '-q', '--port', '0', db], { stdio: ['ignore', 'pipe', 'inherit'] });
	try {
		const u = await new Promise((resolve, reject) => {
			let out = '';
			srv.stdout.on('data', (d) => { out += d; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
			srv.on('exit', (c) => reject(new Error(`server exited (${c}): ${out}`)));
		});
		await page.goto(u);
		const kt = page.getByTestId('table-nsys-kernels');
		await kt.locator('tbody tr').first().waitFor();
		assert.match(await page.evaluate(() => location.hash), /view=nsys/);
		assert.match(await page.getByTestId('nsys-info').textContent(), new RegExp(nsys('info').export.product_version.replace(/\./g, '\\.')));
		for (const [v, key] of [['kernels', 'kernels'], ['memcpy', 'memory_operations'], ['api', 'cuda_api'], ['nvtx', 'nvtx_ranges'], ['gpus', 'gpus']]) {
			const want = nsys(v)[key];
			const t = page.getByTestId(`table-nsys-${key}`);
			assert.equal(await t.locator('tbody tr').count(), want.length, v);
			assert.deepEqual(await t.locator('th').evaluateAll((ths) => ths.map((x) => x.dataset.key)), Object.keys(want[0] || {}), v);
		}
		await kt.locator('th[data-key=name]').click();
		assert.match(await page.evaluate(() => location.hash), /table=nsys-kernels.*sort=name/);
		const want = nsys('kernels').kernels.map((r) => r.name).sort((a, b) => a.localeCompare(b));
		assert.deepEqual(await kt.locator('tbody td.name').allTextContents(), want);
		await shot('nsys');
	} finally {
		const done = new Promise((r) => srv.on('exit', r));
		srv.kill('SIGTERM');
		await done;
		rmSync(dir, { recursive: true, force: true });
	}
});

// The Overview is drawn first from summary?quick=1 and again, whole, from
// the full summary: held back here, the page shows the cards of the quick
// answer with the Tensor Core card and the recommendations pending; let
// go, the values of `gpuprof summary` (written by hand from its text table:
// 56.74 % Tensor-Core-eligible, GPU 0 56.62 %).
test('the Overview shows the quick summary first, then the whole one', { skip: serveOnly('holds back an HTTP answer') }, async () => {
	let release;
	const held = new Promise((r) => { release = r; });
	const full = (u) => /\/api\/file\/1\/summary(\?(?!quick=1)|$)/.test(new URL(u).pathname + new URL(u).search);
	await page.route(full, async (route) => { await held; await route.continue(); });
	try {
		await page.goto('about:blank');
		await page.goto(`${url}#file=1&view=overview`);
		await page.getByTestId('card-steps').waitFor();
		const root = page.getByTestId('overview');
		assert.equal(await root.getAttribute('data-complete'), '0');
		assert.equal(await page.getByTestId('card-steps').textContent(), '6');
		assert.equal(await page.getByTestId('card-avg-step').textContent(), '6.377 ms');
		assert.equal(await page.getByTestId('card-tc').count(), 0);
		// the Unique operators card fills from the ops answer (not held,
		// asked once the quick answer is painted): the Tensor Core card is
		// then the one still pending
		await page.locator('[data-testid=card-operators]:not([data-pending])').waitFor();
		assert.equal(await page.locator('.card .value[data-pending]').filter({ hasText: '…' }).count(), 1);
		assert.equal(await page.locator('p[data-pending]').textContent(), 'Computing the operator tree and the GPU waits analyses…');
		// GPU 0's Tensor Core cell is empty in the quick answer
		const gpu0 = await page.getByTestId('table-gpus').locator('tbody tr').first().locator('td').allTextContents();
		assert.equal(gpu0[6], '41.34 %');
		assert.notEqual(gpu0[9], '56.62 %');
		release();
		await page.locator('[data-testid=overview][data-complete="1"]').waitFor();
		assert.equal(await page.getByTestId('card-tc').textContent(), '56.74 %');
		const done = await page.getByTestId('table-gpus').locator('tbody tr').first().locator('td').allTextContents();
		assert.equal(done[9], '56.62 %');
		assert.equal(await page.locator('[data-pending]').count(), 0);
		assert.equal(await page.locator('ul.recs li').count(), cli('summary').recommendations.length);
	} finally {
		release();
		await page.unroute(full);
	}
});
