// Browser tests of the virtual tables, the Operators/Kernels detail panels,
// the Memory page's zoom and window, and the upload progress bar. Every
// check is against `gpuprof ... --format json` on the same file (or the
// file's own size). Screenshots ops-detail, kernels-detail, memory-zoom.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, gpuprof, startServer, launchBrowser, newPage, cliJson, shot, opsAsShown, serveOnly } from './harness.mjs';

const fixture = path.join(root, 'examples/resnet_like.json.gz');
const { fmt } = await import('../../web/fmt.js');

let dir, many, server, url, browser, page;

// A trace of 5,000 operators with distinct names op_00000..op_04999, i % 3 + 1
// calls each, host times spread so the order is not the names'.
function manyOps(file) {
	const ev = [];
	let t = 10;
	for (let i = 0; i < 5000; i++) {
		for (let k = 0; k < (i % 3) + 1; k++) {
			ev.push({ ph: 'X', cat: 'cpu_op', name: `op_${String(i).padStart(5, '0')}`, pid: 1, tid: 1, ts: t, dur: 1 + ((i * 7919) % 997) });
			t += 1000;
		}
	}
	writeFileSync(file, JSON.stringify({ schemaVersion: 1, traceEvents: ev }));
}

before(async () => {
	dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-tables-'));
	many = path.join(dir, 'many_ops.json');
	manyOps(many);
	// file 1: the example, file 2: the 5,000 operators
	server = await startServer([fixture, many]);
	url = server.url;
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

const hash = async () => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
const cellsOf = (loc) => loc.locator('tbody tr:not(.vpad)').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
const asCells = (rows) => rows.map((r) => Object.keys(r).map((c) => fmt(c, r[c])));
// polls f() until ok(value) (the page's CSP forbids waitForFunction's eval)
async function until(f, ok, what) {
	let v;
	for (let i = 0; i < 400; i++) {
		v = await f().catch(() => undefined);
		if (v !== undefined && ok(v)) return v;
		await page.waitForTimeout(25);
	}
	throw new Error(`${what}: never true (last ${JSON.stringify(v)})`);
}
// rows less the column `key` (a panel leaves out the name they all share)
const without = (rows, key) => rows.map(({ [key]: _, ...rest }) => rest);
const sorted = (rows, key, d) => rows.map((r, i) => [r, i]).sort((a, b) => d * (a[0][key] - b[0][key]) || a[1] - b[1]).map((x) => x[0]);

test('a 5,000-row table: every row reachable by scrolling, sorting and search over all rows', async () => {
	const want = opsAsShown(cliJson('ops', many));
	assert.equal(want.length, 5000);
	await page.goto(`${url}#file=2&view=ops`);
	const table = page.getByTestId('table-operators');
	await table.locator('tbody tr:not(.vpad)').first().waitFor();
	assert.equal(await table.getAttribute('data-rows'), '5000');
	assert.equal(await page.getByTestId('count-operators').textContent(), '5000 rows');
	// virtual: only the rows in view and a margin are in the DOM
	const inDom = await table.locator('tbody tr:not(.vpad)').count();
	assert.ok(inDom > 10 && inDom < 200, `${inDom} rows in the DOM`);
	const top = await cellsOf(table);
	assert.deepEqual(top, asCells(want.slice(0, top.length)));
	// every row is 24 px high (the spacers' arithmetic depends on it)
	const heights = await table.locator('tbody tr:not(.vpad)').evaluateAll((trs) => [...new Set(trs.map((tr) => tr.getBoundingClientRect().height))]);
	assert.deepEqual(heights, [24]);
	// scroll to the end: the last rows are the CLI's last rows
	const wrap = page.locator('.table-wrap.virtual');
	await wrap.evaluate((w) => { w.scrollTop = w.scrollHeight; });
	const lastName = want[want.length - 1].name;
	await until(async () => (await table.locator('tbody tr:not(.vpad) td:first-child').allTextContents()).at(-1), (v) => v === lastName, 'last row');
	const bottom = await cellsOf(table);
	assert.deepEqual(bottom, asCells(want.slice(want.length - bottom.length)));
	// the last row is drawn at the bottom of the scrolled box
	const [rowBox, wrapBox] = [await table.locator('tbody tr:not(.vpad)').last().boundingBox(), await wrap.boundingBox()];
	assert.ok(Math.abs(rowBox.y + rowBox.height - (wrapBox.y + wrapBox.height)) <= 2, `row bottom ${rowBox.y + rowBox.height}, box bottom ${wrapBox.y + wrapBox.height}`);
	// sort by calls (descending, ties in the server's order): still 5,000 rows
	await table.locator('th[data-key=calls]').click();
	assert.equal(await table.getAttribute('data-rows'), '5000');
	const byCalls = sorted(want, 'calls', -1);
	await wrap.evaluate((w) => { w.scrollTop = 0; });
	await until(() => table.locator('tbody tr:not(.vpad) td:first-child').first().textContent(), (v) => v === byCalls[0].name, 'first row after the sort');
	const sTop = await cellsOf(table);
	assert.deepEqual(sTop, asCells(byCalls.slice(0, sTop.length)));
	await wrap.evaluate((w) => { w.scrollTop = w.scrollHeight; });
	await until(async () => (await table.locator('tbody tr:not(.vpad) td:first-child').allTextContents()).at(-1), (v) => v === byCalls.at(-1).name, 'last row after the sort');
	const sBottom = await cellsOf(table);
	assert.deepEqual(sBottom, asCells(byCalls.slice(byCalls.length - sBottom.length)));
	assert.equal((await hash()).get('sort'), 'calls');
	// the CSV has every row, in the sorted order
	const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-operators').click()]);
	const csv = (await (await dl.createReadStream()).toArray()).join('').trim().split('\n');
	assert.equal(csv.length, 5001);
	assert.deepEqual(csv.slice(1).map((l) => l.split(',')[0]), byCalls.map((r) => r.name));
	// search: a few rows, all rendered
	await page.getByTestId('search-operators').fill('op_0499');
	const hits = byCalls.filter((r) => r.name.includes('op_0499'));
	assert.equal(hits.length, 10);
	assert.deepEqual(await cellsOf(table), asCells(hits));
	assert.equal(await page.getByTestId('count-operators').textContent(), '10 of 5000 rows');
	assert.equal(await page.locator('.table-wrap.virtual').count(), 0);
	// keys: down twice selects the second row, Enter opens its panel
	await page.getByTestId('search-operators').fill('');
	await table.locator('tbody tr:not(.vpad)').first().waitFor();
	await page.locator('.table-wrap').first().focus();
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('ArrowUp');
	assert.equal(await table.locator('tbody tr.selected td:first-child').textContent(), byCalls[1].name);
	await page.keyboard.press('Enter');
	const panel = page.getByTestId('detail-panel');
	await panel.waitFor();
	assert.equal(await panel.getAttribute('data-name'), byCalls[1].name);
	assert.equal((await hash()).get('sel'), byCalls[1].name);
	// far down by keys: the selection scrolls into view
	for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowDown');
	assert.equal(await table.locator('tbody tr.selected td:first-child').textContent(), byCalls[41].name);
	assert.ok(await table.locator('tbody tr.selected').isVisible());
});

test('200,000 rows: sorting a numeric column, timed in Chromium; the last row reachable', async () => {
	await page.goto(url);
	await page.getByTestId('card-steps').waitFor();
	const r = await page.evaluate(async () => {
		const { dataTable } = await import('/table.js');
		const rows = [];
		for (let i = 0; i < 200000; i++) rows.push({ name: `row_${i}`, calls: (i * 7919) % 1000, host_self_ns: (i * 104729) % 1000003 });
		const box = dataTable({ name: 'big', rows });
		document.getElementById('view').replaceChildren(box);
		await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
		const th = box.querySelector('th[data-key=host_self_ns]');
		const t0 = performance.now();
		th.click(); // sorts and renders the rows in view, synchronously
		const desc = performance.now() - t0;
		const t1 = performance.now();
		th.click();
		const asc = performance.now() - t1;
		return { desc, asc, first: box.querySelector('tbody tr:not(.vpad) td').textContent };
	});
	// host_self_ns ascending: the smallest value, ties in row order
	const vals = Array.from({ length: 200000 }, (_, i) => [(i * 104729) % 1000003, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	assert.equal(r.first, `row_${vals[0][1]}`);
	console.log(`# sorting 200,000 rows by a numeric column: ${r.desc.toFixed(0)} ms (descending), ${r.asc.toFixed(0)} ms (ascending)`);
	const table = page.getByTestId('table-big');
	assert.equal(await table.getAttribute('data-rows'), '200000');
	await page.locator('.table-wrap.virtual').evaluate((w) => { w.scrollTop = w.scrollHeight; });
	const last = `row_${vals.at(-1)[1]}`;
	await until(async () => (await table.locator('tbody tr:not(.vpad) td:first-child').allTextContents()).at(-1), (v) => v === last, 'the 200,000th row');
});

test('the Operators detail panel: its kernels, input shapes and call stacks are the CLI\'s rows', async () => {
	const op = 'aten::cudnn_convolution';
	const kernels = cliJson('kernels', '--group-by', 'kernel+op', fixture).kernels.filter((r) => r.op === op);
	const shapes = cliJson('ops', '--group-by', 'op+shape', fixture).operators.filter((r) => r.name === op);
	const stacks = cliJson('ops', '--stack', fixture).operators.filter((r) => r.name === op);
	assert.ok(kernels.length > 0 && shapes.length > 1 && stacks.length > 0);
	await page.goto(`${url}#file=1&view=ops`);
	const table = page.getByTestId('table-operators');
	await table.locator('tbody tr').first().waitFor();
	await table.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${op}$`) }) }).click();
	const panel = page.getByTestId('detail-panel');
	await panel.and(page.locator('[data-ready="1"]')).waitFor();
	assert.equal(await panel.getAttribute('data-name'), op);
	assert.deepEqual(await cellsOf(page.getByTestId('table-op-kernels')), asCells(without(kernels, 'op')));
	assert.deepEqual(await cellsOf(page.getByTestId('table-op-shapes')), asCells(without(shapes, 'name')));
	assert.deepEqual(await cellsOf(page.getByTestId('table-op-stacks')), asCells(without(stacks, 'name')));
	assert.equal((await hash()).get('sel'), op);
	assert.equal(await table.locator('tbody tr.selected td:first-child').textContent(), op);
	await panel.scrollIntoViewIfNeeded();
	await shot(page, 'ops-detail');
	// a reload reopens it, the row selected
	await page.reload();
	await page.getByTestId('detail-panel').and(page.locator('[data-ready="1"]')).waitFor();
	assert.deepEqual(await cellsOf(page.getByTestId('table-op-kernels')), asCells(without(kernels, 'op')));
	await until(() => table.locator('tbody tr.selected td:first-child').textContent(), (v) => v === op, 'selected row after reload');
	// closing drops it from the hash
	await page.getByTestId('detail-close').click();
	assert.equal(await page.getByTestId('detail-panel').count(), 0);
	assert.equal((await hash()).get('sel'), null);
});

test('the Kernels detail panel: the operators that launched the kernel, with launch configuration', async () => {
	const byOp = cliJson('kernels', '--group-by', 'kernel+op', fixture).kernels;
	// the kernel launched by the most (operator, configuration) rows
	const n = new Map();
	for (const r of byOp) n.set(r.name, (n.get(r.name) || 0) + 1);
	const name = [...n].sort((a, b) => b[1] - a[1])[0][0];
	const want = byOp.filter((r) => r.name === name);
	assert.ok(want.length > 1, `${name}: ${want.length} rows`);
	await page.goto(`${url}#file=1&view=kernels`);
	const table = page.getByTestId('table-kernels');
	await table.locator('tbody tr').first().waitFor();
	const names = await table.locator('tbody tr td:first-child').allTextContents();
	await table.locator('tbody tr').nth(names.indexOf(name)).click();
	const panel = page.getByTestId('detail-panel');
	await panel.and(page.locator('[data-ready="1"]')).waitFor();
	const t = page.getByTestId('table-kernel-ops');
	assert.deepEqual(await t.locator('th').evaluateAll((ths) => ths.map((x) => x.dataset.key)), Object.keys(want[0]).filter((k) => k !== 'name'));
	assert.deepEqual(await cellsOf(t), asCells(without(want, 'name')));
	// every operator that launched it, by the CLI's rows
	assert.deepEqual(await t.locator('tbody td.name').allTextContents(), want.map((r) => r.op));
	for (const k of ['grid', 'block', 'registers_per_thread', 'shared_memory_bytes', 'tc_used']) assert.ok(k in want[0], k);
	assert.equal((await hash()).get('sel'), name);
	await panel.scrollIntoViewIfNeeded();
	await shot(page, 'kernels-detail');
});

test('the Memory page: peak markers, zoom to a window and the window\'s tables from the server', async () => {
	const whole = cliJson('memory', fixture);
	const curve = cliJson('memory', '--curve', fixture).curve;
	const dev = whole.memory.device;
	const peak = whole.peaks.find((p) => p.device === dev);
	const tAlloc = curve.find((p) => p.allocated_bytes === peak.peak_allocated_bytes).time_ns;
	const tRes = curve.find((p) => p.reserved_bytes === peak.peak_reserved_bytes).time_ns;
	await page.goto(`${url}#file=1&view=memory`);
	const canvas = page.getByTestId('memory-curve');
	const tables = page.getByTestId('memory-tables');
	await until(() => tables.getAttribute('data-window'), (v) => v === 'all', 'tables');
	assert.equal(await page.getByTestId('memory-peak-allocated').getAttribute('data-time'), String(tAlloc));
	assert.equal(await page.getByTestId('memory-peak-reserved').getAttribute('data-time'), String(tRes));
	assert.match(await page.getByTestId('memory-peak-allocated').textContent(), new RegExp(`Peak allocated ${fmt('x_bytes', peak.peak_allocated_bytes)} at ${fmt('t_ns', tAlloc)}`));
	const T0 = curve[0].time_ns, T1 = curve.at(-1).time_ns;
	assert.equal(await canvas.getAttribute('data-start'), String(T0));
	assert.equal(await canvas.getAttribute('data-end'), String(T1));
	assert.equal(await canvas.getAttribute('data-points'), String(curve.length));
	const events = cliJson('memory', '--events', fixture).events;
	assert.equal(await page.getByTestId('table-memory-events').getAttribute('data-rows'), String(events.length));
	// window: the hash's, the canvas's and the tables' agree, and the tables are the CLI's of that window
	const check = async () => {
		const h = await hash();
		const a = h.get('start'), b = h.get('end');
		await until(() => tables.getAttribute('data-window'), (v) => v === `${a}-${b}`, 'tables of the window');
		assert.equal(await canvas.getAttribute('data-start'), a);
		assert.equal(await canvas.getAttribute('data-end'), b);
		const ops = cliJson('memory', '--start', a, '--end', b, fixture).operators;
		const ev = cliJson('memory', '--events', '--start', a, '--end', b, fixture).events;
		assert.deepEqual(await cellsOf(page.getByTestId('table-memory')), asCells(ops));
		const et = page.getByTestId('table-memory-events');
		assert.equal(await et.getAttribute('data-rows'), String(ev.length));
		const shown = await cellsOf(et);
		assert.deepEqual(shown, asCells(ev.slice(0, shown.length)));
		assert.equal(await canvas.getAttribute('data-points'), String(curve.filter((p) => p.time_ns >= +a && p.time_ns <= +b).length));
		return [+a, +b, ev.length, ops.length];
	};
	// three wheel steps in at the middle: the window shrinks around it
	await page.evaluate(() => scrollTo(0, 0));
	const box = await canvas.boundingBox();
	await page.mouse.move(box.x + 80 + (box.width - 100) / 2, box.y + box.height / 2);
	for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100);
	await until(async () => (await hash()).get('start'), (v) => v !== null, 'window in the hash');
	const [a, b, nev] = await check();
	assert.ok(a > T0 && b < T1 && b - a < (T1 - T0) * 0.6, `window ${a}-${b}`);
	assert.ok(nev < events.length);
	// a drag over the left half of the plot zooms to it
	await page.mouse.move(box.x + 80 + 10, box.y + 100);
	await page.mouse.down();
	await page.mouse.move(box.x + 80 + (box.width - 100) / 2, box.y + 120, { steps: 4 });
	await page.mouse.up();
	await until(async () => (await hash()).get('start'), (v) => v !== String(a), 'the dragged window');
	const [a2, b2] = await check();
	assert.ok(a2 >= a && b2 < b, `dragged ${a2}-${b2} inside ${a}-${b}`);
	await shot(page, 'memory-zoom');
	// a reload keeps the window
	await page.reload();
	await until(() => canvas.getAttribute('data-start'), (v) => v === String(a2), 'window after reload');
	await check();
	// Reset: the whole trace again
	await page.getByTestId('memory-reset').click();
	await until(() => tables.getAttribute('data-window'), (v) => v === 'all', 'whole trace');
	assert.equal((await hash()).get('start'), null);
	assert.deepEqual(await cellsOf(page.getByTestId('table-memory')), asCells(whole.operators));
	assert.equal(await page.getByTestId('table-memory-events').getAttribute('data-rows'), String(events.length));
});

test('upload progress: the bar reaches 100 % of the file, then reads, then goes; Cancel aborts', { skip: serveOnly('the progress of an HTTP upload: the static page reads the file where it is') }, async () => {
	const big = path.join(dir, 'big.json');
	execFileSync(gpuprof, ['synth', '-q', '--size', '24M', '-o', big]);
	const size = statSync(big).size;
	assert.ok(size > 20 * 1024 * 1024);
	await page.goto(`${url}#file=1&view=overview`);
	await page.getByTestId('card-steps').waitFor();
	const bar = page.getByTestId('upload-progress');
	// every text the bar shows, in order (a MutationObserver installed from
	// here: request interception would hold the body and so the progress)
	await page.evaluate(() => {
		window.uploadLog = [];
		new MutationObserver((recs) => {
			for (const r of recs) for (const n of r.addedNodes) if (n.parentElement?.dataset.testid === 'upload-text') window.uploadLog.push(n.textContent);
		}).observe(document.querySelector('header'), { childList: true, subtree: true });
	});
	await page.getByTestId('upload').setInputFiles(big);
	await page.locator('#file option').nth(2).waitFor({ state: 'attached', timeout: 30000 });
	await bar.waitFor({ state: 'hidden' });
	const log = await page.evaluate(() => window.uploadLog);
	const mb = (size / 1048576).toFixed(1);
	assert.equal(log[0], `big.json: 0 % (0.0 of ${mb} MB)`);
	assert.deepEqual(log.slice(-2), [`big.json: 100 % (${mb} of ${mb} MB)`, 'big.json: reading…']);
	const pcts = log.slice(0, -1).map((t) => Number(t.match(/: (\d+) %/)[1]));
	assert.deepEqual(pcts, [...pcts].sort((x, y) => x - y), log.join(' | '));
	console.log(`# upload progress shown: ${log.join(' | ')}`);
	assert.equal(await bar.getAttribute('data-pct'), '100');
	assert.equal(await bar.getAttribute('data-loaded'), String(size));
	assert.equal(await bar.getAttribute('data-total'), String(size));
	await page.locator('#file option').nth(2).waitFor({ state: 'attached' });
	assert.deepEqual(await page.locator('#file option').allTextContents(), ['resnet_like.json.gz', 'many_ops.json', 'big.json']);
	assert.equal((await hash()).get('file'), '3');
	// Cancel: the request never answers; the bar goes, no file is added
	await page.route('**/api/upload*', () => { /* held until aborted */ });
	await page.getByTestId('upload').setInputFiles(path.join(root, 'tests/golden/_inputs/memory.json'));
	await bar.waitFor({ state: 'visible' });
	await page.getByTestId('upload-cancel').click();
	await bar.waitFor({ state: 'hidden' });
	assert.equal(await bar.getAttribute('data-state'), 'cancelled');
	assert.equal(await page.getByTestId('error').isVisible(), false);
	const files = JSON.parse(await page.evaluate(async () => (await fetch('/api/files')).text())).files;
	assert.deepEqual(files.map((f) => f.name), ['resnet_like.json.gz', 'many_ops.json', 'big.json']);
	await page.unroute('**/api/upload*');
});
