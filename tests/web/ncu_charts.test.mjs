// Tests of the Nsight Compute section charts (web/ncu_charts.js): the pure
// helpers in node against the real reports of ../shared/data/ncu (the
// occupancy calculator against every kernel's own theoretical occupancy,
// block limits and occupancy curves; the roofline model against a
// computation from `gpuprof ncu raw`), then the page in chromium: the SOL
// bars, the roofline point, the stall bars and the occupancy charts against
// `gpuprof ncu raw|details|body --format json`, the "no data" notes and the
// hint links on tests/golden/_inputs/tiny.ncu-rep. Every chart is also
// checked, without ../shared, on tests/golden/_inputs/full.ncu-rep (written
// by tests/ncu/mkfull.py): the values its comments derive by hand and the
// CLI's body/raw/details JSON. Screenshots ncu-sol, ncu-roofline,
// ncu-occupancy (real report), ncu-full-*. Real reports are skipped when absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root, gpuprof, startServer, launchBrowser, newPage, shot } from './harness.mjs';
import {
	BAR_W, CHART_METRICS, OCC_CURVES, OCC_REPORT, ROOF_BOX, ROOFLINE, barSeries, indexBody, memoryRows, occupancy, occupancyCurves, occupancyInputs,
	rooflineModel, solSeries,
} from '../../web/ncu_charts.js';

const tiny = path.join(root, 'tests/golden/_inputs/tiny.ncu-rep');
const full = path.join(root, 'tests/golden/_inputs/full.ncu-rep'); // tests/ncu/mkfull.py
const dataDir = path.join(root, '../shared/data/ncu');
const t4 = path.join(dataDir, 'ncu2024.2_t4_full_mlp.ncu-rep'); // --set full, one kernel
const reports = existsSync(dataDir) ? readdirSync(dataDir).filter((f) => /\.(ncu-rep|nsight-cuprof-report)$/.test(f)).map((f) => path.join(dataDir, f)) : [];
const ncu = (rep, ...args) => JSON.parse(execFileSync(gpuprof, ['ncu', ...args, '--format', 'json', rep], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const bodyOf = (rep, ...args) => ncu(rep, 'body', '--metric', CHART_METRICS, ...args).body;
const rawNum = (s) => (s === 'n/a' ? null : Number(s.replace(/,/g, '')));
// raw values print with 2 decimals (ncu's format): equal within that
const close2 = (got, text, what) => assert.ok(Math.abs(got - rawNum(text)) <= 0.005 + 1e-9 * Math.abs(got), `${what}: ${got} vs ${text}`);

test('the occupancy calculator gives every real kernel its own theoretical occupancy, limits and curves', { skip: reports.length ? false : 'no ../shared/data/ncu' }, () => {
	let kernels = 0, limits = 0, points = 0, without = 0;
	for (const rep of reports) {
		const rows = bodyOf(rep);
		for (const id of [...new Set(rows.map((r) => r.id))]) {
			const idx = indexBody(rows.filter((r) => r.id === id));
			const c = occupancyInputs(idx.values);
			const o = occupancy(c);
			const theo = idx.values.get(OCC_REPORT.theoretical);
			if (c.maxBlocksPerSM === null) { // the 2019 report has no block-slot attribute
				assert.equal(o, null, `${rep} #${id}`);
				without++;
				continue;
			}
			if (theo === null || theo === undefined) continue; // an incomplete result
			assert.ok(Math.abs(o.pct - theo) < 1e-9, `${path.basename(rep)} #${id}: computed ${o.pct} %, report ${theo} %`);
			kernels++;
			for (const k of ['blocks', 'registers', 'shared_mem', 'warps']) {
				const want = idx.values.get(OCC_REPORT[k]);
				if (want === null || want === undefined) continue;
				assert.equal(o.limits[k], want, `${path.basename(rep)} #${id}: block limit ${k}`);
				limits++;
			}
			// NCU's own curves (Occupancy line charts) for registers and block size
			const sec = idx.sections.get('Occupancy');
			for (const m of sec ? sec.items.flatMap((i) => i.metrics) : []) {
				const key = OCC_CURVES[m.metric];
				if (!key || key === 'shared_mem' || !m.points.length) continue;
				const cur = occupancyCurves(c, { [key]: m.points.map((p) => p.x) }).find((x) => x.key === key);
				cur.points.forEach((p, i) => assert.equal(p.warps, m.points[i].value, `${path.basename(rep)} #${id} ${key} at ${p.x}`));
				points += cur.points.length;
			}
		}
	}
	// complete results: 105 (A10) + 5 (A40) + 4 (H800) + 4 (RTX 5060 Ti) + 3 +
	// 2 (GTX 1660) + 1 + 1 + 1; the 8 of 2019 lack the inputs
	assert.equal(kernels, 126);
	assert.equal(without, 8);
	assert.equal(limits, kernels * 4);
	assert.ok(points > 10000, `curve points ${points}`);
});

test('the roofline model is the achieved FLOP/s and arithmetic intensity of the raw metrics', { skip: existsSync(t4) ? false : 'no T4 report' }, () => {
	const idx = indexBody(bodyOf(t4, '--id', '0'));
	const m = rooflineModel(idx.values);
	const raw = new Map(ncu(t4, 'raw', '--id', '0', '--print-units', 'base').metrics.map((r) => [r.metric, rawNum(r.text)]));
	const v = (n) => raw.get(n);
	// FP32: (fadd + fmul + 2 ffma) per cycle x SM frequency; DRAM bytes per second
	const p = (op) => v(`smsp__sass_thread_inst_executed_op_f${op}_pred_on.sum.per_cycle_elapsed`);
	const work = (p('add') + p('mul') + 2 * p('fma')) * v(ROOFLINE.smHz);
	const traffic = v(ROOFLINE.dramBytesPerSec);
	assert.equal(m.points.length, 1); // only FP32 work in this kernel (35.19 FADD per cycle)
	assert.equal(m.points[0].key, 'single');
	assert.ok(Math.abs(m.points[0].work / work - 1) < 2e-4, `${m.points[0].work} vs ${work}`);
	assert.ok(Math.abs(m.points[0].ai / (work / traffic) - 1) < 2e-4);
	// exactly, from the full-precision values
	const e = (n) => idx.values.get(n);
	assert.equal(m.points[0].work, (e(`smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed`) + 0 + 2 * 0) * e(ROOFLINE.smHz));
	// peaks: 2 x 2,560 FFMA per cycle x SM clock; 64 byte per cycle x DRAM clock
	assert.deepEqual(m.rooflines.map((r) => r.key), ['single', 'double']);
	assert.equal(m.rooflines[0].peakWork, 2560 * 2 * e(ROOFLINE.peakSmHz));
	assert.equal(m.rooflines[1].peakWork, 80 * 2 * e(ROOFLINE.peakSmHz));
	assert.equal(m.peakTraffic, 64 * e(ROOFLINE.dramHz));
});

let browser, page;
before(async () => { browser = await launchBrowser(); page = await newPage(browser); });
after(async () => { await browser?.close(); });

const attrs = (loc, names) => loc.evaluateAll((els, ns) => els.map((e) => Object.fromEntries(ns.map((n) => [n, e.getAttribute(n)]))), names);
const cells = (loc) => loc.evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('the tiny report: SOL bar, no-data note, rules by speedup and hint links', async () => {
	const srv = await startServer([tiny]);
	try {
		await page.goto(`${srv.url}#file=1&view=ncu&kernel=0&section=GPU%20Speed%20Of%20Light%20Throughput`);
		const bars = page.getByTestId('ncu-sol').locator('rect.bar');
		await bars.first().waitFor();
		const raw = ncu(tiny, 'raw', '--id', '0', '--print-units', 'base').metrics;
		const sm = raw.find((r) => r.metric === 'sm__throughput.avg.pct_of_peak_sustained_elapsed');
		const got = await attrs(bars, ['data-metric', 'data-value', 'width', 'data-label']);
		assert.equal(got.length, 1);
		assert.equal(got[0]['data-metric'], sm.metric);
		assert.equal(Number(got[0]['data-value']), 12.3456); // the value mkreport.py writes
		close2(Number(got[0]['data-value']), sm.text, 'SM %');
		assert.equal(Number(got[0].width), (12.3456 / 100) * BAR_W);
		assert.equal(got[0]['data-label'], 'SM [%]'); // the bar chart's own label
		// the report has no memory throughput: said, not drawn
		assert.match(await page.getByTestId('ncu-chart-nodata').first().textContent(), /Memory Throughput: no data in this report/);
		// the kernel's hints ranked by speedup, and the global table links back
		assert.equal(await page.getByTestId('ncu-kernel-hints').locator('li').count(), 1);
		await page.goto(`${srv.url}#file=1&view=ncu&kernel=0&section=nothing`);
		await page.getByTestId('table-hints').locator('tbody tr').first().click();
		await page.locator('[data-testid=ncu-section-tab].active').waitFor();
		assert.match(await page.evaluate(() => location.hash), /kernel=0.*section=SpeedOfLight|section=SpeedOfLight.*kernel=0/);
		assert.equal(await page.locator('[data-testid=ncu-section-tab].active').getAttribute('data-name'), 'GPU Speed Of Light Throughput');
	} finally {
		await srv.stop();
	}
});

test('a full report: SOL bars, roofline point, stall bars and occupancy charts', { skip: existsSync(t4) ? false : 'no T4 report' }, async () => {
	const srv = await startServer([t4]);
	try {
		const raw = new Map(ncu(t4, 'raw', '--id', '0', '--print-units', 'base').metrics.map((r) => [r.metric, r.text]));
		const idx = indexBody(bodyOf(t4, '--id', '0'));
		const tab = (name) => `${srv.url}#file=1&view=ncu&kernel=0&section=${encodeURIComponent(name)}`;
		// SOL: Compute (SM) and Memory bars, length = value, value = the raw metric
		await page.goto(tab('GPU Speed Of Light Throughput'));
		const sol = page.getByTestId('ncu-sol').locator('rect.bar');
		await sol.first().waitFor();
		const bars = await attrs(sol, ['data-metric', 'data-value', 'width']);
		assert.deepEqual(bars.map((b) => b['data-metric']), ['sm__throughput.avg.pct_of_peak_sustained_elapsed', 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed']);
		for (const b of bars) {
			close2(Number(b['data-value']), raw.get(b['data-metric']), b['data-metric']);
			assert.ok(Math.abs(Number(b.width) - (Number(b['data-value']) / 100) * BAR_W) < 1e-9);
		}
		assert.equal(raw.get(bars[1]['data-metric']), '88.39');
		// the breakdown tables: one bar per sub-metric, by value
		const br = await attrs(page.getByTestId('ncu-sol-breakdown').first().locator('rect.bar'), ['data-metric', 'data-value']);
		assert.equal(br.length, 22);
		for (let i = 1; i < br.length; i++) assert.ok(Number(br[i - 1]['data-value']) >= Number(br[i]['data-value']));
		await shot(page, 'ncu-sol');

		// roofline: the point at (arithmetic intensity, FLOP/s) computed from raw
		await page.goto(tab('GPU Speed Of Light Roofline Chart'));
		const pt = page.getByTestId('ncu-roof-point');
		await pt.waitFor();
		const num = (n) => rawNum(raw.get(n));
		const work = (num('smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed') + num('smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed') +
			2 * num('smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed')) * num(ROOFLINE.smHz);
		const ai = work / num(ROOFLINE.dramBytesPerSec);
		const a = (await attrs(pt, ['data-work', 'data-ai', 'cx', 'cy', 'data-precision']))[0];
		assert.equal(a['data-precision'], 'single');
		assert.ok(Math.abs(Number(a['data-work']) / work - 1) < 2e-4, `${a['data-work']} vs ${work}`);
		assert.ok(Math.abs(Number(a['data-ai']) / ai - 1) < 2e-4);
		const ax = await attrs(page.getByTestId('ncu-roofline'), ['data-xmin', 'data-xmax', 'data-ymin', 'data-ymax']);
		const L = Math.log10, { x0, y0, w, h } = ROOF_BOX, r = ax[0];
		const cx = x0 + ((L(Number(a['data-ai'])) - L(Number(r['data-xmin']))) / (L(Number(r['data-xmax'])) - L(Number(r['data-xmin'])))) * w;
		const cy = y0 + h - ((L(Number(a['data-work'])) - L(Number(r['data-ymin']))) / (L(Number(r['data-ymax'])) - L(Number(r['data-ymin'])))) * h;
		assert.ok(Math.abs(Number(a.cx) - cx) < 1e-6 && Math.abs(Number(a.cy) - cy) < 1e-6);
		assert.ok(Number(a.cx) > x0 && Number(a.cx) < x0 + w && Number(a.cy) > y0 && Number(a.cy) < y0 + h);
		assert.equal(await page.getByTestId('ncu-roof').count(), 2); // FP32 and FP64 rooflines
		await shot(page, 'ncu-roofline');

		// warp stalls: the section's bar chart, by value, as `ncu details` prints them
		await page.goto(tab('Warp State Statistics'));
		const st = page.getByTestId('ncu-stalls').locator('rect.bar');
		await st.first().waitFor();
		const stalls = await attrs(st, ['data-label', 'data-value']);
		const det = ncu(t4, 'details', '--id', '0', '--print-units', 'base').details.filter((d) => d.item === 'Warp State (All Cycles)');
		assert.equal(stalls.length, det.filter((d) => d.value !== 'n/a').length);
		assert.equal(stalls[0]['data-label'], 'Stall Long Scoreboard');
		for (let i = 0; i < stalls.length; i++) {
			const d = det.find((x) => x.metric === stalls[i]['data-label']);
			close2(Number(stalls[i]['data-value']), d.value, d.metric);
			if (i) assert.ok(Number(stalls[i - 1]['data-value']) >= Number(stalls[i]['data-value']));
		}
		// instruction mix: one bar per opcode, the instance values
		await page.goto(tab('Instruction Statistics'));
		await page.getByTestId('ncu-instmix').locator('rect.bar').first().waitFor();
		const mix = await attrs(page.getByTestId('ncu-instmix').locator('rect.bar'), ['data-label', 'data-value']);
		const ops = idx.sections.get('Instruction Statistics').items[0].metrics[0].points;
		assert.equal(mix.length, ops.length);
		assert.deepEqual(mix[0], { 'data-label': 'IMAD', 'data-value': '189504' });

		// occupancy: the report's theoretical and achieved, ours, and the curves
		await page.goto(tab('Occupancy'));
		const ob = page.getByTestId('ncu-occupancy-bars').locator('rect.bar');
		await ob.first().waitFor();
		const occ = await attrs(ob, ['data-metric', 'data-value']);
		close2(Number(occ[0]['data-value']), raw.get(OCC_REPORT.theoretical), 'theoretical');
		close2(Number(occ[1]['data-value']), raw.get(OCC_REPORT.achieved), 'achieved');
		assert.equal(Number(occ[2]['data-value']), 100);
		assert.match(await page.getByTestId('ncu-occupancy-limits').textContent(), /4 blocks x 8 warps = 32 warps per SM; block limits: SM 16, registers 16, shared memory 16, warps 4 \(equals the report's theoretical occupancy\)/);
		assert.equal(await page.getByTestId('ncu-occupancy-curve').count(), 3);
		const regs = JSON.parse(await page.locator('[data-testid=ncu-occupancy-curve][data-curve=registers] polyline').getAttribute('data-points'));
		const own = idx.sections.get('Occupancy').items[0].metrics[0].points;
		assert.deepEqual(regs, own.map((p) => [p.x, p.value]));
		await shot(page, 'ncu-occupancy');
	} finally {
		await srv.stop();
	}
});

// --- the project's own fixture: tests/golden/_inputs/full.ncu-rep ---

// mkfull.py's values (its comments derive them): DRAM throughput % of the
// two kernels (bytes/s over 48 byte/cycle x 7 GHz), the stall and opcode
// mixes, the occupancy of each launch.
const DRAM_PCT = [100 * 2e11 / 3.36e11, 100 * 3e11 / 3.36e11];
const FULL = [{
	sol: [72.5, DRAM_PCT[0]],
	compute: [['SM: Pipe Fma Cycles Active', 72.5], ['SM: Issue Active', 48.5], ['SM: Inst Executed', 48.25], ['SM: Pipe Alu Cycles Active', 12.75], ['SM: Inst Executed Pipe Lsu', 9]],
	memory: [['DRAM: Cycles Active', DRAM_PCT[0]], ['L2: T Sectors', 41.25], ['L1: Data Pipe Lsu Wavefronts', 35.5], ['L1: Lsuin Requests', 30.125], ['L2: D Sectors', 22]],
	stalls: [['Stall Math Pipe Throttle', 3.25], ['Stall Long Scoreboard', 2.5], ['Stall Wait', 1.75], ['Stall Barrier', 1.125], ['Selected', 1],
		['Stall Not Selected', 0.625], ['Stall Short Scoreboard', 0.5], ['Stall MIO Throttle', 0.25]], // Stall GMMA: absent (n/a), no bar
	mix: [['FFMA', 120000], ['LDS', 30000], ['IMAD', 15000], ['LDG', 8000], ['FADD', 5000], ['BRA', 3000], ['ISETP', 3000], ['FMUL', 2500],
		['BAR', 2000], ['STG', 1000], ['EXIT', 896], ['DFMA', 100]],
	occ: { warpsPerBlock: 8, blocks: 4, warps: 32, pct: 100 * 32 / 48, limits: { blocks: 16, warps: 6, registers: 4, shared_mem: 7 } },
	achieved: 61.25,
	limitsText: '4 blocks x 8 warps = 32 warps per SM; block limits: SM 16, registers 4, shared memory 7, warps 6 (equals the report\'s theoretical occupancy)',
}, {
	sol: [14, DRAM_PCT[1]],
	stalls: [['Stall Long Scoreboard', 18], ['Stall Wait', 1.5], ['Selected', 1], ['Stall MIO Throttle', 0.375], ['Stall Short Scoreboard', 0.25],
		['Stall Not Selected', 0.125], ['Stall Barrier', 0]],
	mix: [['IMAD', 8192], ['EXIT', 4096], ['FMNMX', 4096], ['ISETP', 4096], ['LDG', 4096], ['STG', 4096]],
	occ: { warpsPerBlock: 4, blocks: 12, warps: 48, pct: 100, limits: { blocks: 16, warps: 12, registers: 16, shared_mem: 32 } },
	achieved: 87.5,
	limitsText: '12 blocks x 4 warps = 48 warps per SM; block limits: SM 16, registers 16, shared memory 32, warps 12 (equals the report\'s theoretical occupancy)',
}];

test('the fixture: occupancy, roofline and chart series are the values mkfull.py derives', () => {
	const rows = bodyOf(full);
	for (const [id, want] of FULL.entries()) {
		const idx = indexBody(rows.filter((r) => r.id === id));
		const c = occupancyInputs(idx.values);
		const o = occupancy(c);
		assert.deepEqual(o, want.occ, `#${id}`);
		assert.equal(idx.values.get(OCC_REPORT.theoretical), o.pct);
		assert.equal(idx.values.get(OCC_REPORT.achieved), want.achieved);
		for (const k of ['blocks', 'registers', 'shared_mem', 'warps']) assert.equal(idx.values.get(OCC_REPORT[k]), o.limits[k]);
		// the report's three curves are ours at every point (the fixture keeps the carveout)
		const own = {};
		for (const m of idx.sections.get('Occupancy').items.flatMap((i) => i.metrics)) if (OCC_CURVES[m.metric]) own[OCC_CURVES[m.metric]] = m.points;
		assert.deepEqual(Object.keys(own).map((k) => [k, own[k].length]), [['registers', 256], ['block_size', 32], ['shared_mem', 25]]);
		for (const cur of occupancyCurves(c, Object.fromEntries(Object.entries(own).map(([k, p]) => [k, p.map((q) => q.x)])))) {
			assert.deepEqual(cur.points.map((p) => [p.x, p.warps]), own[cur.key].map((p) => [p.x, p.value]), `#${id} ${cur.key}`);
		}
		if (id === 0) { // by hand: 32 regs -> 6 blocks (warps), 255 -> 1; 32 threads -> 7 (shared memory); 96 KiB -> 1
			const at = (k, x) => own[k].find((p) => p.x === x).value;
			assert.deepEqual([at('registers', 32), at('registers', 64), at('registers', 255), at('block_size', 32), at('block_size', 1024), at('shared_mem', 0), at('shared_mem', 98304)],
				[48, 32, 8, 7, 32, 32, 8]);
		}
		// Speed Of Light bars and breakdowns
		const sol = solSeries(idx.sections.get('GPU Speed Of Light Throughput'));
		assert.deepEqual(sol.main.map((m) => [m.label, m.value]), [['Compute (SM) [%]', want.sol[0]], ['Memory [%]', want.sol[1]]]);
		if (want.compute) {
			assert.deepEqual(sol.breakdowns.map((b) => [b.label, b.bars.map((x) => [x.label, x.value])]),
				[['Compute Throughput Breakdown', want.compute], ['Memory Throughput Breakdown', want.memory]]);
		}
		// stalls and instruction mix; the header's sums
		const stalls = barSeries(idx.sections.get('Warp State Statistics'));
		assert.deepEqual(stalls.map((s) => [s.label, s.bars.map((b) => [b.label, b.value])]), [['Warp State (All Cycles)', want.stalls]]);
		assert.equal(idx.sections.get('Warp State Statistics').header[0].value, want.stalls.reduce((a, [, v]) => a + v, 0));
		const mix = barSeries(idx.sections.get('Instruction Statistics'));
		assert.deepEqual(mix.map((s) => s.bars.map((b) => [b.label, b.value])), [want.mix]);
		assert.equal(idx.sections.get('Instruction Statistics').header[0].value, want.mix.reduce((a, [, v]) => a + v, 0));
		// roofline: three peaks, 336 GB/s; sgemm_tile has FP32 and FP64 points, relu_kernel none
		const m = rooflineModel(idx.values);
		assert.equal(m.peakTraffic, 48 * 7e9);
		assert.deepEqual(m.rooflines.map((r) => [r.key, r.peakWork, r.ridge]), [['single', 2 * 3584 * 1.5e9, 32], ['double', 2 * 56 * 1.5e9, 0.5], ['half', 2 * 7168 * 1.5e9, 64]]);
		assert.deepEqual(m.points.map((p) => [p.key, p.work, p.ai]), id === 0 ? [['single', 7.425e12, 37.125], ['double', 6e9, 0.03]] : []);
	}
	// the memory tables of sgemm_tile, by level
	const idx = indexBody(rows.filter((r) => r.id === 0));
	assert.deepEqual(memoryRows(idx.sections.get('Memory Workload Analysis')).map((r) => [r.level, r.label, r.unit, r.value]), [
		['L1/TEX', 'L1/TEX Hit Rate', '%', 12.5], ['L2', 'L2 Hit Rate', '%', 80], ['DRAM', 'Memory Throughput', 'byte/s', 2e11],
		['Other', 'Mem Busy', '%', 41.25], ['Other', 'Max Bandwidth', '%', DRAM_PCT[0]], ['Other', 'Mem Pipes Busy', '%', 9]]);
	assert.deepEqual(memoryRows(idx.sections.get('Memory Workload Analysis Tables')).map((r) => [r.level, r.label, r.value]), [
		['L1/TEX', 'L1TEX Throughput', 30.125], ['L2', 'L2 Throughput', 41.25], ['DRAM', 'DRAM Throughput', DRAM_PCT[0]], ['PCIe', 'PCIe read bandwidth', 1.5e6]]);
	// and the raw page agrees with the body's values (2 decimals)
	const raw = new Map(ncu(full, 'raw', '--id', '0', '--print-units', 'base').metrics.map((r) => [r.metric, r.text]));
	for (const [name, v] of idx.values) if (typeof v === 'number') close2(v, raw.get(name), name);
});

test('the fixture in the page: SOL bars and breakdowns, roofline points, stalls, instruction mix, memory and occupancy charts', async () => {
	const srv = await startServer([full]);
	try {
		for (const [id, want] of FULL.entries()) {
			const tab = (name) => `${srv.url}#file=1&view=ncu&kernel=${id}&section=${encodeURIComponent(name)}`;
			const body = bodyOf(full, '--id', String(id));
			const raw = new Map(ncu(full, 'raw', '--id', String(id), '--print-units', 'base').metrics.map((r) => [r.metric, r.text]));
			const det = ncu(full, 'details', '--id', String(id), '--print-units', 'base').details;
			const barsOf = async (testid) => attrs(page.getByTestId(testid).locator('rect.bar'), ['data-label', 'data-value', 'data-metric', 'width']);

			// Speed Of Light: the two bars at their values, then one chart per breakdown
			await page.goto(tab('GPU Speed Of Light Throughput'));
			await page.getByTestId('ncu-sol').locator('rect.bar').first().waitFor();
			const sol = await barsOf('ncu-sol');
			assert.deepEqual(sol.map((b) => [b['data-label'], Number(b['data-value'])]), [['Compute (SM) [%]', want.sol[0]], ['Memory [%]', want.sol[1]]]);
			for (const b of sol) {
				assert.equal(Number(b.width), (Number(b['data-value']) / 100) * BAR_W);
				assert.equal(Number(b['data-value']), body.find((r) => r.item === 0 && r.metric === b['data-metric']).value);
				close2(Number(b['data-value']), raw.get(b['data-metric']), b['data-metric']);
			}
			assert.equal(await page.getByTestId('ncu-chart-nodata').count(), 0);
			const charts = page.getByTestId('ncu-sol-breakdown');
			assert.equal(await charts.count(), 2);
			for (let i = 0; i < 2; i++) {
				const got = await attrs(charts.nth(i).locator('rect.bar'), ['data-label', 'data-value', 'data-metric']);
				const rows = body.filter((r) => r.parent && r.item === i + 1);
				assert.equal(got.length, rows.length);
				for (const g of got) assert.equal(Number(g['data-value']), rows.find((r) => r.metric === g['data-metric']).value);
				if (want.compute) assert.deepEqual(got.map((g) => [g['data-label'], Number(g['data-value'])]), i ? want.memory : want.compute);
			}
			if (id === 0) await shot(page, 'ncu-full-sol');

			// roofline: FP32, FP64 and FP16 rooflines; sgemm_tile's two points where they belong
			await page.goto(tab('GPU Speed Of Light Roofline Chart'));
			await page.getByTestId('ncu-roofline').waitFor();
			const roofs = await attrs(page.getByTestId('ncu-roof'), ['data-precision', 'data-peak-work', 'data-peak-traffic']);
			assert.deepEqual(roofs.map((r) => [r['data-precision'], Number(r['data-peak-work']), Number(r['data-peak-traffic'])]),
				[['single', 1.0752e13, 3.36e11], ['double', 1.68e11, 3.36e11], ['half', 2.1504e13, 3.36e11]]);
			const pts = await attrs(page.getByTestId('ncu-roof-point'), ['data-precision', 'data-work', 'data-ai', 'cx', 'cy']);
			if (id === 0) {
				assert.deepEqual(pts.map((p) => [p['data-precision'], Number(p['data-work']), Number(p['data-ai'])]), [['single', 7.425e12, 37.125], ['double', 6e9, 0.03]]);
				// the FP32 point from the raw page's values: (FADD + FMUL + 2 FFMA) per cycle x SM clock / DRAM bytes per second
				const n = (k) => rawNum(raw.get(k));
				const work = (n('smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed') + n('smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed') +
					2 * n('smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed')) * n(ROOFLINE.smHz);
				assert.equal(Number(pts[0]['data-work']), work);
				assert.equal(Number(pts[0]['data-ai']), work / n(ROOFLINE.dramBytesPerSec));
				const r = (await attrs(page.getByTestId('ncu-roofline'), ['data-xmin', 'data-xmax', 'data-ymin', 'data-ymax']))[0];
				const L = Math.log10, { x0, y0, w, h } = ROOF_BOX;
				for (const p of pts) {
					const cx = x0 + ((L(Number(p['data-ai'])) - L(Number(r['data-xmin']))) / (L(Number(r['data-xmax'])) - L(Number(r['data-xmin'])))) * w;
					const cy = y0 + h - ((L(Number(p['data-work'])) - L(Number(r['data-ymin']))) / (L(Number(r['data-ymax'])) - L(Number(r['data-ymin'])))) * h;
					assert.ok(Math.abs(Number(p.cx) - cx) < 1e-6 && Math.abs(Number(p.cy) - cy) < 1e-6);
					assert.ok(Number(p.cx) > x0 && Number(p.cx) < x0 + w && Number(p.cy) > y0 && Number(p.cy) < y0 + h);
				}
				await shot(page, 'ncu-full-roofline');
			} else {
				assert.equal(pts.length, 0);
				assert.equal(await page.getByTestId('ncu-chart-nodata').textContent(),
					'Achieved FLOP/s: no data in this report (the kernel executed no floating-point add, multiply or FMA).');
			}

			// warp stalls, by value, as the details page prints them
			await page.goto(tab('Warp State Statistics'));
			await page.getByTestId('ncu-stalls').locator('rect.bar').first().waitFor();
			const stalls = await barsOf('ncu-stalls');
			assert.deepEqual(stalls.map((b) => [b['data-label'], Number(b['data-value'])]), want.stalls);
			const dstall = det.filter((d) => d.item === 'Warp State (All Cycles)');
			assert.equal(dstall.length, stalls.length);
			for (const b of stalls) close2(Number(b['data-value']), dstall.find((d) => d.metric === b['data-label']).value, b['data-label']);

			// instruction mix: the opcode instances
			await page.goto(tab('Instruction Statistics'));
			await page.getByTestId('ncu-instmix').locator('rect.bar').first().waitFor();
			const mix = await barsOf('ncu-instmix');
			assert.deepEqual(mix.map((b) => [b['data-label'], Number(b['data-value'])]), want.mix);
			assert.deepEqual(mix.map((b) => Number(b.width)), want.mix.map(([, v]) => (v / want.mix[0][1]) * BAR_W));

			// memory: the %-metrics as bars, every metric in the table by level, with ncu's text
			await page.goto(tab('Memory Workload Analysis'));
			await page.getByTestId('ncu-memory-table').waitFor();
			const mem = body.filter((r) => r.section_id === 'MemoryWorkloadAnalysis' && r.metric);
			const mbars = await barsOf('ncu-memory-bars');
			assert.equal(mbars.length, mem.filter((r) => r.unit === '%').length);
			for (const b of mbars) assert.equal(Number(b['data-value']), mem.find((r) => r.metric === b['data-metric']).value);
			const mrows = await cells(page.getByTestId('ncu-memory-table').locator('tbody tr'));
			assert.equal(mrows.length, mem.length);
			if (id === 0) {
				assert.deepEqual(mbars.map((b) => [b['data-label'], Number(b['data-value'])]),
					[['L1/TEX: L1/TEX Hit Rate', 12.5], ['L2: L2 Hit Rate', 80], ['Other: Mem Busy', 41.25], ['Other: Max Bandwidth', DRAM_PCT[0]], ['Other: Mem Pipes Busy', 9]]);
				assert.deepEqual(mrows[2], ['DRAM', 'Memory Throughput', 'byte/s', '200,000,000,000']);
				await page.goto(tab('Memory Workload Analysis Tables'));
				// (the previous section's table is there until the page re-renders)
				await page.locator('[data-testid=ncu-charts][data-section=MemoryWorkloadAnalysis_Tables] [data-testid=ncu-memory-table]').waitFor();
				assert.deepEqual((await cells(page.getByTestId('ncu-memory-table').locator('tbody tr'))).map((r) => r.slice(0, 2)),
					[['L1/TEX', 'L1TEX Throughput'], ['L2', 'L2 Throughput'], ['DRAM', 'DRAM Throughput'], ['PCIe', 'PCIe read bandwidth']]);
				assert.deepEqual((await barsOf('ncu-memory-bars')).map((b) => Number(b['data-value'])), [30.125, 41.25, DRAM_PCT[0]]);
			}

			// occupancy: the report's theoretical and achieved, ours equal, the limits, the three curves on the report's dots
			await page.goto(tab('Occupancy'));
			await page.getByTestId('ncu-occupancy-bars').locator('rect.bar').first().waitFor();
			const occ = await barsOf('ncu-occupancy-bars');
			assert.deepEqual(occ.map((b) => Number(b['data-value'])), [want.occ.pct, want.achieved, want.occ.pct]);
			close2(Number(occ[0]['data-value']), raw.get(OCC_REPORT.theoretical), 'theoretical');
			assert.equal(await page.getByTestId('ncu-occupancy-limits').textContent(), `Computed: ${want.limitsText}`);
			const curves = page.getByTestId('ncu-occupancy-curve');
			assert.deepEqual(await curves.evaluateAll((els) => els.map((e) => e.dataset.curve)), ['registers', 'block_size', 'shared_mem']);
			for (const [key, metric] of Object.entries({ registers: 'launch__occupancy_per_register_count', block_size: 'launch__occupancy_per_block_size', shared_mem: 'launch__occupancy_per_shared_mem_size' })) {
				const own = body.filter((r) => r.metric === metric && r.instance !== null).map((r) => [r.x, r.value]);
				const line = page.locator(`[data-testid=ncu-occupancy-curve][data-curve=${key}]`);
				assert.deepEqual(JSON.parse(await line.locator('polyline').getAttribute('data-points')), own);
				assert.equal(await line.locator('circle.own').count(), own.length);
			}
			if (id === 0) await shot(page, 'ncu-full-occupancy');
		}
	} finally {
		await srv.stop();
	}
});
