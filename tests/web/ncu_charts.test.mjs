// Tests of the Nsight Compute section charts (web/ncu_charts.js): the pure
// helpers in node against the real reports of ../shared/data/ncu (the
// occupancy calculator against every kernel's own theoretical occupancy,
// block limits and occupancy curves; the roofline model against a
// computation from `gpuprof ncu raw`), then the page in chromium: the SOL
// bars, the roofline point, the stall bars and the occupancy charts against
// `gpuprof ncu raw|details|body --format json`, the "no data" notes and the
// hint links on tests/golden/_inputs/tiny.ncu-rep. Screenshots ncu-sol,
// ncu-roofline, ncu-occupancy. Real reports are skipped when absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root, gpuprof, startServer, launchBrowser, newPage, shot } from './harness.mjs';
import {
	BAR_W, CHART_METRICS, OCC_CURVES, OCC_REPORT, ROOF_BOX, ROOFLINE, indexBody, occupancy, occupancyCurves, occupancyInputs, rooflineModel,
} from '../../web/ncu_charts.js';

const tiny = path.join(root, 'tests/golden/_inputs/tiny.ncu-rep');
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
	const raw = new Map(ncu(t4, 'raw', '--id', '0', '--print-units', 'base').metrics.map((r) => [r.metric, rawNum(r.value)]));
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
		close2(Number(got[0]['data-value']), sm.value, 'SM %');
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
		const raw = new Map(ncu(t4, 'raw', '--id', '0', '--print-units', 'base').metrics.map((r) => [r.metric, r.value]));
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
