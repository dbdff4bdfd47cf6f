// Browser tests of what a first-time user sees on the viewer's pages: every
// expected text below is written by hand (the CLI's text tables for the same
// file, read once and copied here, or the number worked out in the comment),
// never formatted with web/fmt.js or another module of the page.
// Inputs: examples/resnet_like.json.gz (the synthetic ResNet-like trace the
// goldens use), and small files made here: examples/tiny.json with its GPU
// events moved to a device deviceProperties does not list, tiny.json cut
// short (truncated), tiny.json without its memory records, an Nsight
// Systems export with only NVTX_EVENTS (built with python3's sqlite3), and
// tests/golden/_inputs/full.ncu-rep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, fresh, retry, shot, backend, serveOnly } from './harness.mjs';
import { serving } from './serving.mjs';

const resnet = path.join(root, 'examples/resnet_like.json.gz');
const tiny = JSON.parse(readFileSync(path.join(root, 'examples/tiny.json'), 'utf8'));
const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-defects-web-'));
const longName = path.join(dir, 'a_very_long_trace_file_name_from_the_cluster_rank0_steps_1000_to_2000.pt.trace.json');
writeFileSync(longName, JSON.stringify(tiny));
// the GPU events on device 2; deviceProperties list GPU 0 only
const dev2 = path.join(dir, 'dev2.json');
writeFileSync(dev2, JSON.stringify({ ...tiny, traceEvents: tiny.traceEvents.map((e) =>
	(e.args && 'device' in e.args && ['kernel', 'gpu_memcpy', 'gpu_memset', 'gpu_user_annotation'].includes(e.cat) ? { ...e, pid: 2, args: { ...e.args, device: 2 } } : e)) }));
// tiny.json's text cut in the middle of an event
const cut = path.join(dir, 'cut.json');
const text = readFileSync(path.join(root, 'examples/tiny.json'), 'utf8');
writeFileSync(cut, text.slice(0, text.indexOf('"aten::empty_strided"') + 5));
const nomem = path.join(dir, 'nomem.json');
writeFileSync(nomem, JSON.stringify({ ...tiny, traceEvents: tiny.traceEvents.filter((e) => e.name !== '[memory]') }));
// an Nsight Systems export with NVTX ranges only: no CUDA table at all
const nvtxOnly = path.join(dir, 'nvtx.sqlite');
execFileSync('/usr/bin/python3', ['-c', `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
create table StringIds(id integer primary key, value text not null);
create table META_DATA_EXPORT(name text, value text);
create table NVTX_EVENTS(start int, end int, eventType int, rangeId int, category int, color int, text text, globalTid int, endGlobalTid int, textId int, domainId int);
insert into NVTX_EVENTS(start, end, eventType, text, globalTid) values (1000, 5000, 59, 'train', 1), (6000, 9000, 59, 'train', 1);
""")
db.commit()
`, nvtxOnly]);
const ncu = path.join(root, 'tests/golden/_inputs/full.ncu-rep');

// file ids in this order (the static site opens no SQLite: no export there)
const NAMED = { resnet, long: longName, dev2, cut, nomem, ...(backend === 'site' ? {} : { nvtx: nvtxOnly }), ncu };
const FILES = Object.values(NAMED);
const ID = Object.fromEntries(Object.keys(NAMED).map((k, i) => [k, i + 1]));
const noSqlite = serveOnly('an Nsight Systems SQLite export');

const ctx = serving(FILES, { cleanup: () => rmSync(dir, { recursive: true, force: true }) });
let page;
const open = (id, view, more = '') => { page = ctx.page; return fresh(page, `${ctx.server.url}#file=${id}&view=${view}${more}`); };
const text$ = (testid) => page.getByTestId(testid).textContent();
const cellsOf = (testid) => page.getByTestId(testid).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('table cells print durations as the CLI prints them (fmt.test.mjs checks the fractions)', async () => {
	await open(ID.resnet, 'steps');
	await page.getByTestId('table-steps').locator('tbody tr').first().waitFor();
	// gpuprof steps: step 3, Start 305649 ns, End 6972826 ns, Memset 2.550 us
	assert.deepEqual((await cellsOf('table-steps'))[0],
		['3', '305.649 us', '6.973 ms', '2.581 ms', '1.322 ms', '2.550 us', '115.732 us', '118.960 us', '2.351 ms', '147.971 us', '28.439 us', '6.667 ms']);
	// no cell of any table on the page has two decimal points
	for (const v of ['ops', 'kernels', 'steps']) {
		await open(ID.resnet, v);
		await page.locator('table.data tbody tr').first().waitFor();
		const bad = await page.locator('table.data td').evaluateAll((tds) => tds.map((t) => t.textContent).filter((t) => /\d\.\d+\.\d/.test(t)));
		assert.deepEqual(bad, [], v);
	}
});

test('Steps: the heading counts steps, not the average; Start/End from the trace start, titled', async () => {
	await open(ID.resnet, 'steps');
	await page.getByTestId('steps-chart').waitFor();
	assert.equal(await page.locator('section h2').first().textContent(), 'Steps (6)');
	const th = page.getByTestId('table-steps').locator('th');
	assert.deepEqual(await th.allTextContents(),
		['Step', 'Start', 'End', 'Kernel', 'Memcpy', 'Memset', 'Communication', 'Runtime', 'DataLoader', 'CPU Exec', 'Other', 'Total']);
	assert.equal(await th.nth(1).getAttribute('title'), "Start, a duration since the trace's start (start_ns in CSV/JSON)");
});

test('column titles for people, with the unit and the key in the tooltip', async () => {
	await open(ID.resnet, 'overview');
	const th = page.getByTestId('table-gpus').locator('th');
	await th.first().waitFor();
	// gpuprof summary's GPUs table titles, as its text table prints them
	assert.deepEqual(await th.allTextContents(), ['GPU', 'Name', 'Memory', 'Compute capability', 'SMs', 'Kernels', 'GPU Utilization',
		'Est. SM Efficiency', 'Est. Achieved Occupancy', 'Kernel Time using Tensor Cores']);
	assert.equal(await th.nth(6).getAttribute('title'), 'GPU Utilization, percent (gpu_utilization_pct in CSV/JSON)');
	assert.equal(await th.nth(2).getAttribute('title'), 'Memory, bytes (memory_bytes in CSV/JSON)');
	await open(ID.resnet, 'ops');
	const oth = page.getByTestId('table-operators').locator('th');
	await oth.first().waitFor();
	assert.deepEqual(await oth.allTextContents(), ['Name', 'Calls', 'Device Self', 'Share of Device Self', 'Device Total', 'Host Self', 'Host Total',
		'TC Eligible', 'TC Self', 'TC Total', 'Has Stack']);
	assert.equal(await oth.nth(2).getAttribute('title'), 'Device Self, a duration (device_self_ns in CSV/JSON)');
});

test('one step selector in the header after an upload', async () => {
	await open(ID.resnet, 'overview');
	await page.getByTestId('step-select').waitFor();
	await page.getByTestId('upload').setInputFiles(path.join(root, 'examples/tiny.json'));
	const up = String(FILES.length + 1); // the upload's id
	await retry(async () => assert.equal(await page.getByTestId('file-select').inputValue(), up));
	await retry(async () => assert.match(await text$('card-events'), /^46$/)); // tiny.json: 46 events (gpuprof info)
	// every render of the upload has finished: one selector, one range input
	await page.waitForLoadState('networkidle');
	assert.equal(await page.getByTestId('step-select').count(), 1);
	assert.equal(await page.getByTestId('range-input').count(), 1);
	await fetch(`${ctx.server.url}api/file/${up}`, { method: 'DELETE' });
});

test('Esc closes a detail panel opened by a click; Ctrl+F focuses the page search', async () => {
	await open(ID.resnet, 'ops');
	const table = page.getByTestId('table-operators');
	await table.locator('tbody tr').first().click();
	await page.getByTestId('detail-panel').waitFor();
	// the click leaves the focus on the body, not in the panel
	await page.locator('h2').first().click();
	await page.keyboard.press('Escape');
	await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
	assert.doesNotMatch(await page.evaluate(() => location.hash), /sel=/);
	await page.keyboard.press('Control+f');
	assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'search-operators');
});

test('one colour per breakdown part, the same on Overview and Steps', async () => {
	const colours = async (sel) => page.locator(sel).evaluateAll((rs) => Object.fromEntries(rs.map((r) => [r.dataset.part, r.getAttribute('fill')])));
	await open(ID.resnet, 'overview');
	await page.getByTestId('breakdown-chart').waitFor();
	const ov = await colours('[data-testid=breakdown-chart] rect');
	// the palette (web/palette.js), by name
	const want = { Kernel: '#4e79a7', Memcpy: '#f28e2b', Memset: '#e15759', Communication: '#76b7b2', Runtime: '#59a14f', DataLoader: '#edc948', 'CPU Exec': '#b07aa1', Other: '#9c755f' };
	assert.deepEqual(ov, want);
	await open(ID.resnet, 'steps');
	await page.getByTestId('steps-chart').waitFor();
	const st = await page.locator('[data-testid=steps-chart] g[data-step="3"] rect').evaluateAll((rs) => rs.map((r) => [r.dataset.part, r.getAttribute('fill')]));
	assert.deepEqual(st, [['kernel_ns', want.Kernel], ['memcpy_ns', want.Memcpy], ['memset_ns', want.Memset], ['communication_ns', want.Communication],
		['runtime_ns', want.Runtime], ['dataloader_ns', want.DataLoader], ['cpu_exec_ns', want['CPU Exec']], ['other_ns', want.Other]]);
	// a trace whose breakdown has no Communication part: the others keep their colours
	await open(ID.long, 'overview');
	await page.getByTestId('breakdown-chart').waitFor();
	const { Communication, ...noComm } = want;
	assert.deepEqual(await colours('[data-testid=breakdown-chart] rect'), noComm);
});

test('the header stays on one line at 1280 px with a long file name', async () => {
	await open(ID.long, 'overview');
	await page.getByTestId('card-steps').waitFor();
	await page.getByTestId('step-select').waitFor();
	const boxes = await page.locator('header > *:not([hidden])').evaluateAll((es) => es.map((e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, right: r.right, w: r.width }; }).filter((b) => b.w > 0));
	const top = Math.min(...boxes.map((b) => b.top)), bottom = Math.max(...boxes.map((b) => b.bottom));
	assert.ok(bottom - top < 40, `header ${bottom - top} px high`);
	assert.ok(Math.max(...boxes.map((b) => b.right)) <= 1280, 'header wider than the window');
	assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 1280);
	const sel = page.getByTestId('file-select');
	assert.equal(await sel.getAttribute('title'), 'a_very_long_trace_file_name_from_the_cluster_rank0_steps_1000_to_2000.pt.trace.json ([ and ] switch)');
	assert.equal(await sel.evaluate((e) => getComputedStyle(e).textOverflow), 'ellipsis');
	await shot(page, 'defects-header-1280');
	// a step range's chip takes room: a second line, never a page wider than the window
	await open(ID.resnet, 'overview', '&step=3-5');
	await page.getByTestId('sel-chip').waitFor();
	assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 1280);
});

test('a truncated trace says so above every page', async () => {
	for (const v of ['overview', 'ops', 'kernels', 'memory', 'steps']) {
		await open(ID.cut, v);
		const b = page.getByTestId('anomaly-banner');
		await retry(async () => assert.match(await b.textContent(), /^The numbers of this trace are incomplete: the input ends before the trace is complete \(at byte \d+\): only the events before are counted\. The Overview lists every input anomaly\.$/), 8000);
		// above the page: right under the header
		const [bb, vb] = [await b.boundingBox(), await page.locator('#view').boundingBox()];
		assert.ok(bb.y < vb.y, v);
	}
	// a well-formed trace: no banner
	await open(ID.resnet, 'overview');
	await page.getByTestId('card-steps').waitFor();
	assert.equal(await page.getByTestId('anomaly-banner').isHidden(), true);
});

test('column and card titles say which denominator each Tensor Core percentage uses', async () => {
	// gpuprof summary: 56.74 % Tensor-Core-eligible; GPU 0 56.62 %; gpuprof kernels: 44.14 % of kernel time
	await open(ID.resnet, 'overview');
	await page.getByTestId('card-tc').waitFor();
	assert.equal(await text$('card-tc'), '56.74 %');
	assert.equal(await page.getByTestId('card-tc').locator('xpath=..').locator('.label').textContent(), "Tensor-Core-eligible ops (of operators' kernel time)");
	assert.equal((await cellsOf('table-gpus'))[0][9], '56.62 %');
	assert.equal(await text$('gpus-tc-note'), "Tensor Cores: the share of Tensor Core kernels in the kernel time the operators launched on that GPU (the Kernels page's share is of all kernel time).");
	await open(ID.resnet, 'kernels');
	await page.getByTestId('card-tc-used').waitFor();
	assert.equal(await text$('card-tc-used'), '44.14 %');
	assert.equal(await page.getByTestId('card-tc-used').locator('xpath=..').locator('.label').textContent(), 'Kernel time using Tensor Cores (of all kernel time)');
});

test('kernels on a GPU that deviceProperties does not list: said so', async () => {
	await open(ID.dev2, 'overview');
	await page.getByTestId('table-gpus').locator('tbody tr').first().waitFor();
	assert.equal(await text$('gpu-unlisted'), "GPU 2 ran 2 kernels, but the trace's deviceProperties do not list it (they list GPU 0): its name, memory, compute capability and SMs are unknown, and the occupancy estimates use no device limits.");
	// gpuprof summary's rows: GPU 0 (listed, idle), GPU 2 (2 kernels, 9.16 % utilization)
	const rows = await cellsOf('table-gpus');
	assert.deepEqual(rows.map((r) => r.slice(0, 7)), [['0', 'NVIDIA H100 80GB HBM3', '79.20 GiB', '9.0', '132', '0', '-'], ['2', 'not in deviceProperties', '-', '-', '-', '2', '9.16 %']]);
});

test('empty states: Memory without records', async () => {
	await open(ID.nomem, 'memory');
	assert.match(await text$('memory-empty'), /^This trace has no memory records \(\[memory\] events\): the profiler recorded none\. torch\.profiler\.profile\(profile_memory=True\)/);
	assert.equal(await page.getByTestId('memory-canvas').count(), 0);
});

test('empty states: an export without CUDA tables', { skip: noSqlite }, async () => {
	await open(ID.nvtx, 'timeline');
	assert.equal(await text$('timeline-no-cuda'), 'The export has no CUPTI_ACTIVITY_KIND_KERNEL or CUPTI_ACTIVITY_KIND_MEMCPY or CUPTI_ACTIVITY_KIND_MEMSET or CUPTI_ACTIVITY_KIND_RUNTIME tables: Nsight Systems captured none of this (profile with the matching trace option, e.g. nsys profile --trace=cuda,nvtx). The timeline shows only the export\'s NVTX ranges.');
});

test('Nsight Systems: the info block and every table when tables are missing', { skip: noSqlite }, async () => {
	await open(ID.nvtx, 'nsys');
	await page.getByTestId('nsys-info').waitFor();
	// gpuprof nsys FILE info: NVTX_EVENTS 2, every other table '-'
	const info = await page.getByTestId('nsys-info').locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.cells[0]?.textContent ?? tr.querySelector('th').textContent, tr.querySelector('td').textContent]));
	assert.deepEqual(info.slice(1), [['product version', '-'], ['kernels', '-'], ['memcpy', '-'], ['memset', '-'], ['cuda api calls', '-'], ['nvtx events', '2'], ['gpus', '-']]);
	// the NVTX table has its row (gpuprof nsys FILE nvtx: train, PushPop, 100.00 %, 7.000 us, 2)
	assert.deepEqual((await cellsOf('table-nsys-nvtx_ranges'))[0].slice(0, 5), ['train', 'PushPop', '100.00 %', '7.000 us', '2']);
	// each missing one: an empty table that says why
	for (const [key, why] of [['kernels', 'CUPTI_ACTIVITY_KIND_KERNEL table'], ['memory_operations', 'CUPTI_ACTIVITY_KIND_MEMCPY or CUPTI_ACTIVITY_KIND_MEMSET tables'],
		['cuda_api', 'CUPTI_ACTIVITY_KIND_RUNTIME table'], ['gpus', 'CUPTI_ACTIVITY_KIND_KERNEL or CUPTI_ACTIVITY_KIND_MEMCPY or CUPTI_ACTIVITY_KIND_MEMSET tables']]) {
		assert.equal(await text$(`nsys-missing-${key}`), `The export has no ${why}: Nsight Systems captured none of this (profile with the matching trace option, e.g. nsys profile --trace=cuda,nvtx).`, key);
		assert.equal(await page.getByTestId(`table-nsys-${key}`).locator('tbody tr').count(), 0, key);
	}
	assert.equal(await page.getByTestId('nsys-missing-nvtx_ranges').count(), 0);
});

test('Nsight Compute chart labels stay readable at 800 px', async () => {
	const narrow = await ctx.browser.newPage({ viewport: { width: 800, height: 900 } });
	try {
		await narrow.goto(`${ctx.server.url}#file=${ID.ncu}&view=ncu`);
		await narrow.locator('.ncu-chart svg text').first().waitFor();
		// the on-screen size of each label: its font size times the SVG's scale
		const sizes = await narrow.locator('.ncu-chart svg text').evaluateAll((ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
		assert.ok(sizes.length >= 10, `${sizes.length} labels`);
		assert.ok(Math.min(...sizes) >= 10, `smallest label ${Math.min(...sizes).toFixed(1)} px`);
	} finally {
		await narrow.close();
	}
});

test('Overview: summary cards and the GPU utilization gauge', async () => {
	await open(ID.resnet, 'overview');
	await page.getByTestId('card-duration').waitFor();
	// gpuprof info: span 39,675,609 ns, 11739 events, 1302 kernels; gpuprof ops: 73 operators
	assert.equal(await text$('card-duration'), '39.676 ms');
	assert.equal(await text$('card-events'), '11739');
	// filled when the ops answer comes, after the page is drawn
	await page.locator('[data-testid=card-operators]:not([data-pending])').waitFor();
	assert.equal(await text$('card-operators'), '73');
	assert.equal(await text$('card-kernels'), '1302');
	// gpuprof summary: GPU 0 utilization 41.34 %, the only GPU with kernels
	assert.equal(await page.locator('[data-testid^=gauge-gpu-]').count(), 1);
	assert.equal(await page.getByTestId('gauge-gpu-0').locator('text').textContent(), '41.34 %');
	await shot(page, 'defects-overview');
});

test('Operators: a share column and chart; Kernels: Tensor Core badges', async () => {
	await open(ID.resnet, 'ops');
	const t = page.getByTestId('table-operators');
	await t.locator('tbody tr').first().waitFor();
	// aten::copy_: 8,451,679 ns of device self time out of 23,978,976 ns (the
	// sum over the 73 rows of gpuprof ops) = 35.246 %
	assert.deepEqual((await cellsOf('table-operators'))[0].slice(0, 4), ['aten::copy_', '12', '8.452 ms', '35.25 %']);
	const bars = await page.getByTestId('ops-share-chart').locator('g').evaluateAll((gs) => gs.map((g) => [g.dataset.name, g.lastChild.textContent]));
	assert.equal(bars.length, 11); // the 10 largest and the others
	assert.deepEqual(bars[0], ['aten::copy_', '35.25 %']);
	// 23 operators have device self time: the 13 after the first 10 are one bar
	assert.equal(bars[10][0], 'Other (13 operators)');
	await open(ID.resnet, 'kernels');
	const k = page.getByTestId('table-kernels');
	await k.locator('tbody tr').first().waitFor();
	// gpuprof kernels: the first row (an NCCL kernel) uses no Tensor Cores
	const col = (await k.locator('th').evaluateAll((ths) => ths.map((x) => x.dataset.key))).indexOf('tc_used');
	const tcCells = await k.locator(`tbody tr td:nth-child(${col + 1})`).evaluateAll((tds) => tds.map((td) => [td.textContent, !!td.querySelector('.badge.tc')]));
	assert.deepEqual(tcCells[0], ['no', false]);
	// 5 of the 24 kernels use Tensor Cores (gpuprof kernels' Uses TC column)
	assert.equal(tcCells.filter(([txt, badge]) => txt === 'Tensor Cores' && badge).length, 5);
	assert.ok(tcCells.every(([txt, badge]) => (txt === 'Tensor Cores') === badge));
});
