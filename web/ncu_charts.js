// ncu_charts: charts of the Nsight Compute sections, drawn above a
// section's metric table from GET /api/file/ID/ncu/body?id=N&metric=RE
// (`gpuprof ncu body`): the metrics each section's header, extra metrics
// and body items declare, with full-precision values and the instances of
// chart metrics, plus the metrics named by CHART_METRICS (launch
// configuration, device attributes, roofline inputs). SVG, no library.
//
// The first half is pure (no DOM; node imports it in the tests): indexing
// the body rows, the occupancy calculator, the roofline model and the
// series of each chart. The second half draws them.

// --- the metrics the charts compute with, beyond what sections declare ---

// Roofline inputs (NCU's SpeedOfLight_RooflineChart section file, shipped
// in the Nsight Compute install's sections/ folder: peak work = FMA peak
// per cycle x 2 x SM frequency, peak traffic = DRAM bytes per cycle x DRAM
// frequency; achieved work = (ADD + MUL + 2 x FMA) thread instructions per
// cycle x SM frequency, achieved traffic = DRAM bytes per second).
export const ROOFLINE = {
	smHz: 'smsp__cycles_elapsed.avg.per_second',
	peakSmHz: 'sm__cycles_elapsed.avg.per_second',
	dramHz: 'dram__cycles_elapsed.avg.per_second',
	dramPeakBytes: 'dram__bytes.sum.peak_sustained',
	dramBytesPerSec: 'dram__bytes.sum.per_second',
	precisions: [
		{ key: 'single', label: 'Single precision (FP32)', p: 'f' },
		{ key: 'double', label: 'Double precision (FP64)', p: 'd' },
		{ key: 'half', label: 'Half precision (FP16)', p: 'h' },
	],
};
const opPerCycle = (p, op) => `smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum.per_cycle_elapsed`;
const fmaPeak = (p) => `sm__sass_thread_inst_executed_op_${p}fma_pred_on.sum.peak_sustained`;

// Occupancy inputs: the launch configuration and the device's limits.
export const OCCUPANCY = {
	ccMajor: 'device__attribute_compute_capability_major',
	ccMinor: 'device__attribute_compute_capability_minor',
	warpSize: 'device__attribute_warp_size',
	maxWarpsPerSM: 'device__attribute_max_warps_per_multiprocessor',
	maxBlocksPerSM: 'device__attribute_max_blocks_per_multiprocessor',
	regsPerSM: 'device__attribute_max_registers_per_multiprocessor',
	regsPerBlock: 'device__attribute_max_registers_per_block',
	maxThreadsPerBlock: 'device__attribute_max_threads_per_block',
	smemOptin: 'device__attribute_max_shared_memory_per_block_optin',
	blockSize: 'launch__block_size',
	regsPerThread: 'launch__registers_per_thread',
	smemConfig: 'launch__shared_mem_config_size',
	smemStatic: 'launch__shared_mem_per_block_static',
	smemDynamic: 'launch__shared_mem_per_block_dynamic',
	smemDriver: 'launch__shared_mem_per_block_driver',
};
export const OCC_REPORT = {
	theoretical: 'sm__maximum_warps_per_active_cycle_pct',
	achieved: 'sm__warps_active.avg.pct_of_peak_sustained_active',
	blocks: 'launch__occupancy_limit_blocks',
	registers: 'launch__occupancy_limit_registers',
	shared_mem: 'launch__occupancy_limit_shared_mem',
	warps: 'launch__occupancy_limit_warps',
};

const esc = (s) => s.replace(/[.]/g, '\\.');
// The metric= regex of the body request: every name above, anchored.
export const CHART_METRICS = '^(' + [
	...Object.values(OCCUPANCY), ...Object.values(OCC_REPORT),
	ROOFLINE.smHz, ROOFLINE.peakSmHz, ROOFLINE.dramHz, ROOFLINE.dramPeakBytes, ROOFLINE.dramBytesPerSec,
].map(esc).join('|') + '|smsp__sass_thread_inst_executed_op_[dfh](add|mul|fma)_pred_on\\.sum\\.per_cycle_elapsed' +
	'|sm__sass_thread_inst_executed_op_[dfh]fma_pred_on\\.sum\\.peak_sustained)$';

// --- indexing the body rows ---

// rows: the `body` array. Returns {values: Map(metric -> number|null),
// sections: Map(section display name -> {id, name, header, extra, items})};
// items: [{item, kind, type, label, metrics: [{metric, label, unit, value,
// text, parent, points: [{x, x_text, value}]}]}].
export function indexBody(rows) {
	const values = new Map();
	const sections = new Map();
	const lastOf = new Map();
	for (const r of rows) {
		if (r.metric !== null && r.instance === null && !values.has(r.metric)) values.set(r.metric, r.value);
		if (r.section === null) continue;
		let s = sections.get(r.section);
		if (!s) sections.set(r.section, (s = { id: r.section_id, name: r.section, header: [], extra: [], items: [] }));
		if (r.instance !== null) {
			lastOf.get(`${r.section}\u0000${r.item}\u0000${r.metric}`)?.points.push({ x: r.x, x_text: r.x_text, value: r.value });
			continue;
		}
		const m = { metric: r.metric, label: r.label ?? r.metric, unit: r.unit, value: r.value, text: r.text, parent: r.parent, points: [] };
		if (r.item === null) {
			if (r.metric !== null) (r.type === 'header' ? s.header : s.extra).push(m);
			continue;
		}
		let it = s.items.find((x) => x.item === r.item);
		if (!it) s.items.push((it = { item: r.item, kind: r.kind, type: r.type, label: r.item_label ?? '', metrics: [] }));
		if (r.metric !== null) {
			it.metrics.push(m);
			lastOf.set(`${r.section}\u0000${r.item}\u0000${r.metric}`, m);
		}
	}
	return { values, sections };
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// --- occupancy ---

// Theoretical occupancy of a launch, by the rules of the CUDA occupancy
// calculator (cuda_occupancy.h in the CUDA toolkit, functions
// cudaOccMaxBlocksPerSM{WarpsLimit,BlockBarrierLimit,SmemLimit,RegsLimit}):
// - warps: floor(max warps per SM / warps per block), warps per block =
//   ceil(block size / warp size);
// - blocks: the SM's block slots;
// - registers: allocated per warp in units of 256 (regs per warp =
//   roundUp(regs per thread x warp size, 256)) in each of the SM's 4
//   sub-partitions (2 on CC 6.0): limit = floor(floor(regs per SM / 4 /
//   regs per warp) x 4 / warps per block); 0 when the block's warps,
//   rounded up to a multiple of 4, need more than the per-block maximum;
//   no registers: no limit;
// - shared memory: per block = static + dynamic + the driver's reserved
//   bytes, rounded up to the allocation unit (128 bytes on CC >= 8.0, 256
//   before); limit = floor(the launch's shared-memory carveout
//   (launch__shared_mem_config_size) / that); none used: no limit.
// Active blocks = the smallest limit; occupancy = blocks x warps per block
// / max warps per SM. c: the OCCUPANCY keys as numbers (null = absent).
export function occupancy(c) {
	const need = ['warpSize', 'maxWarpsPerSM', 'maxBlocksPerSM', 'regsPerSM', 'blockSize', 'regsPerThread'];
	if (need.some((k) => num(c[k]) === null) || c.blockSize <= 0) return null;
	const warpsPerBlock = Math.ceil(c.blockSize / c.warpSize);
	const cc = (c.ccMajor ?? 0) * 10 + (c.ccMinor ?? 0);
	const subparts = cc === 60 ? 2 : 4;
	const roundUp = (v, g) => Math.ceil(v / g) * g;
	const limits = { blocks: c.maxBlocksPerSM, warps: Math.floor(c.maxWarpsPerSM / warpsPerBlock) };
	if (c.regsPerThread > 0) {
		const regsPerWarp = roundUp(c.regsPerThread * c.warpSize, 256);
		const perBlock = regsPerWarp * roundUp(warpsPerBlock, subparts);
		limits.registers = num(c.regsPerBlock) !== null && perBlock > c.regsPerBlock ? 0
			: Math.floor((Math.floor(c.regsPerSM / subparts / regsPerWarp) * subparts) / warpsPerBlock);
	} else limits.registers = c.maxBlocksPerSM;
	const smem = (c.smemStatic ?? 0) + (c.smemDynamic ?? 0) + (c.smemDriver ?? 0);
	const gran = (c.ccMajor ?? 0) >= 8 ? 128 : 256;
	limits.shared_mem = smem > 0 && num(c.smemConfig) !== null ? Math.floor(c.smemConfig / roundUp(smem, gran)) : c.maxBlocksPerSM;
	const blocks = Math.max(0, Math.min(limits.blocks, limits.warps, limits.registers, limits.shared_mem));
	const warps = blocks * warpsPerBlock;
	return { warpsPerBlock, limits, blocks, warps, pct: (100 * warps) / c.maxWarpsPerSM };
}

export function occupancyInputs(values) {
	const c = {};
	for (const [k, name] of Object.entries(OCCUPANCY)) c[k] = num(values.get(name));
	return c;
}

// The three curves of the Occupancy section: active warps per SM as one
// input varies, the others as launched. xs: the x values of the report's
// own curve when it has one, else a default range.
export function occupancyCurves(c, own = {}) {
	const range = (a, b, step) => Array.from({ length: Math.floor((b - a) / step) + 1 }, (_, i) => a + i * step);
	const smemGran = (c.ccMajor ?? 0) >= 8 ? 128 : 256;
	const defs = [
		{ key: 'registers', title: 'Impact of varying register count per thread', xLabel: 'registers per thread', at: c.regsPerThread,
			xs: own.registers || range(0, 255, 1), with: (x) => ({ ...c, regsPerThread: x }) },
		{ key: 'block_size', title: 'Impact of varying block size', xLabel: 'threads per block', at: c.blockSize,
			xs: own.block_size || range(32, c.maxThreadsPerBlock ?? 1024, 32), with: (x) => ({ ...c, blockSize: x }) },
		{ key: 'shared_mem', title: 'Impact of varying shared memory usage per block', xLabel: 'shared memory per block [byte]',
			at: (c.smemStatic ?? 0) + (c.smemDynamic ?? 0),
			xs: own.shared_mem || range(0, c.smemOptin ?? 49152, smemGran * 4),
			with: (x) => ({ ...c, smemStatic: x, smemDynamic: 0, smemDriver: 0 }) },
	];
	return defs.map((d) => ({ ...d, points: d.xs.map((x) => ({ x, warps: occupancy(d.with(x))?.warps ?? null })) }));
}

// The report's own curves (Occupancy section line charts): metric -> key.
export const OCC_CURVES = {
	launch__occupancy_per_register_count: 'registers',
	launch__occupancy_per_block_size: 'block_size',
	launch__occupancy_per_shared_mem_size: 'shared_mem',
};

// --- roofline ---

// Returns {peakTraffic (byte/s), rooflines: [{key, label, peakWork (FLOP/s),
// ridge (FLOP/byte)}], points: [{key, label, work, traffic, ai}]} or null
// when the report lacks the DRAM inputs. A precision whose peak is absent
// has no roofline; one that executed no operation has no point.
export function rooflineModel(values) {
	const v = (n) => num(values.get(n));
	const peakTraffic = v(ROOFLINE.dramPeakBytes) !== null && v(ROOFLINE.dramHz) !== null ? v(ROOFLINE.dramPeakBytes) * v(ROOFLINE.dramHz) : null;
	const traffic = v(ROOFLINE.dramBytesPerSec);
	if (peakTraffic === null || traffic === null) return null;
	const rooflines = [], points = [];
	for (const pr of ROOFLINE.precisions) {
		const peak = v(fmaPeak(pr.p)), hz = v(ROOFLINE.peakSmHz);
		if (peak !== null && hz !== null && peak > 0) {
			const peakWork = peak * 2 * hz;
			rooflines.push({ key: pr.key, label: pr.label, peakWork, ridge: peakWork / peakTraffic });
		}
		const add = v(opPerCycle(pr.p, 'add')), mul = v(opPerCycle(pr.p, 'mul')), fma = v(opPerCycle(pr.p, 'fma')), shz = v(ROOFLINE.smHz);
		if (fma === null || shz === null) continue;
		const work = ((add ?? 0) + (mul ?? 0) + 2 * fma) * shz;
		if (work > 0 && traffic > 0) points.push({ key: pr.key, label: pr.label, work, traffic, ai: work / traffic });
	}
	return { peakTraffic, traffic, rooflines, points };
}

// --- series of the other charts ---

// Speed Of Light: the section's "GPU Throughput" bar chart (or its two
// header metrics), then each breakdown table's sub-metrics by value.
const SOL_MAIN = [
	{ metric: 'sm__throughput.avg.pct_of_peak_sustained_elapsed', label: 'Compute (SM) Throughput' },
	{ metric: 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Memory Throughput' },
];
export function solSeries(sec) {
	const all = [...sec.header, ...sec.extra, ...sec.items.flatMap((i) => i.metrics)];
	const main = SOL_MAIN.map((m) => {
		const found = sec.items.filter((i) => i.type === 'bar').flatMap((i) => i.metrics).find((x) => x.metric === m.metric) || all.find((x) => x.metric === m.metric);
		return { metric: m.metric, label: found ? found.label : m.label, value: found ? num(found.value) : null };
	});
	const breakdowns = sec.items.filter((i) => i.metrics.some((m) => m.parent)).map((i) => ({
		label: i.label,
		bars: i.metrics.filter((m) => m.parent && num(m.value) !== null).map((m) => ({ metric: m.metric, label: m.label, value: m.value }))
			.sort((a, b) => b.value - a.value || (a.metric < b.metric ? -1 : 1)),
	}));
	return { main, breakdowns };
}

// Bar items of a section as series: [{label, unit, bars: [{label, value}]}],
// bars with instances (the opcode mix) by instance, all sorted by value.
export function barSeries(sec) {
	return sec.items.filter((i) => i.type === 'bar' || i.type === 'histogram').map((i) => {
		const withPoints = i.metrics.find((m) => m.points.length);
		const bars = withPoints
			? withPoints.points.map((p) => ({ metric: withPoints.metric, label: p.x_text ?? String(p.x), value: p.value }))
			: i.metrics.map((m) => ({ metric: m.metric, label: m.label, value: num(m.value) }));
		return { label: i.label, unit: withPoints ? '' : i.metrics[0]?.unit ?? '', bars: bars.filter((b) => num(b.value) !== null).sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : 1)) };
	});
}

// Memory: the section's %-valued and rate metrics grouped by memory level
// (by the metric's unit prefix; gpu__dram_throughput is the DRAM's too).
export function memoryRows(sec) {
	const level = (m) => (/^l1tex__|^smsp__sass.*mem_(global|local)/.test(m) ? 'L1/TEX' : /^lts__/.test(m) ? 'L2' : /^(dram|fbpa)__|^gpu__dram_/.test(m) ? 'DRAM' : /^pcie__/.test(m) ? 'PCIe' : 'Other');
	const order = ['L1/TEX', 'L2', 'DRAM', 'PCIe', 'Other'];
	return [...sec.header, ...sec.extra].filter((m) => m.metric).map((m) => ({ level: level(m.metric), label: m.label, unit: m.unit, value: num(m.value), text: m.text, metric: m.metric }))
		.sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level));
}

// Rules sorted by estimated speedup, highest first, those without last;
// ties keep their order.
export function bySpeedup(rules) {
	const sp = (r) => (typeof r.speedup_pct === 'number' ? r.speedup_pct : -Infinity);
	return rules.map((r, i) => [r, i]).sort((a, b) => sp(b[0]) - sp(a[0]) || a[1] - b[1]).map((x) => x[0]);
}

// --- drawing ---

const SVGNS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...kids) {
	const e = document.createElementNS(SVGNS, tag);
	for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
	e.append(...kids);
	return e;
}
function h(tag, props = {}, ...kids) {
	const { dataset, ...rest } = props;
	const e = Object.assign(document.createElement(tag), rest);
	Object.assign(e.dataset, dataset || {});
	e.append(...kids);
	return e;
}
const fmtNum = (v, d = 2) => (v === null ? 'n/a' : v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: Number.isInteger(v) ? 0 : Math.min(d, 2) }));
const fmtSi = (v, unit) => {
	if (v === null) return 'n/a';
	const p = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'K']].find(([f]) => Math.abs(v) >= f);
	return p ? `${(v / p[0]).toFixed(2)} ${p[1]}${unit}` : `${v.toPrecision(3)} ${unit}`;
};

export function noData(chart, why) {
	return h('p', { className: 'ncu-nodata', textContent: `${chart}: no data in this report${why ? ` (${why})` : ''}.`, dataset: { testid: 'ncu-chart-nodata', chart } });
}

// Horizontal bars. max: the value of a full bar (100 for percentages).
// Each bar carries data-value (the value) and data-metric; width =
// min(value, max) / max x BAR_W.
export const BAR_W = 500;
export function hbars(testid, title, bars, { max = 100, unit = '%' } = {}) {
	const rowH = 22, labelW = 300, pad = 90;
	const height = Math.max(1, bars.length) * rowH + 6;
	const s = svg('svg', { viewBox: `0 0 ${labelW + BAR_W + pad} ${height}`, width: '100%', role: 'img', 'aria-label': title, class: 'ncu-bars' });
	s.dataset.testid = testid;
	s.dataset.max = String(max);
	bars.forEach((b, i) => {
		const y = 3 + i * rowH;
		const w = (Math.min(Math.max(b.value, 0), max) / max) * BAR_W;
		const r = svg('rect', { x: labelW, y: y + 3, width: w, height: rowH - 8, class: 'bar' });
		r.dataset.value = String(b.value);
		r.dataset.label = b.label;
		if (b.metric) r.dataset.metric = b.metric;
		r.append(svg('title', {}, `${b.label}: ${fmtNum(b.value)} ${unit}`));
		s.append(svg('rect', { x: labelW, y: y + 3, width: BAR_W, height: rowH - 8, class: 'track' }), r,
			svg('text', { x: labelW - 6, y: y + rowH / 2 + 4, 'text-anchor': 'end', class: 'label' }, b.label.length > 46 ? b.label.slice(0, 45) + '…' : b.label),
			svg('text', { x: labelW + BAR_W + 6, y: y + rowH / 2 + 4, class: 'value' }, `${fmtNum(b.value)}${unit ? ' ' + unit : ''}`));
	});
	return h('figure', { className: 'ncu-chart' }, h('figcaption', { textContent: title }), s);
}

function solChart(sec) {
	const { main, breakdowns } = solSeries(sec);
	const have = main.filter((m) => m.value !== null);
	const out = [];
	if (have.length) out.push(hbars('ncu-sol', 'GPU throughput (% of peak)', have));
	for (const m of main.filter((x) => x.value === null)) out.push(noData(`${m.label}`, m.metric));
	for (const b of breakdowns) if (b.bars.length) out.push(hbars('ncu-sol-breakdown', `${b.label} (% of peak)`, b.bars));
	return out;
}

// Log-log roofline: x = arithmetic intensity (FLOP/byte), y = FLOP/s.
export const ROOF_BOX = { x0: 70, y0: 10, w: 560, h: 300 };
function rooflineChart(values) {
	const m = rooflineModel(values);
	if (!m || !m.rooflines.length) return [noData('Roofline', 'needs DRAM bandwidth and FMA peaks')];
	const ridges = m.rooflines.map((r) => r.ridge), ais = m.points.map((p) => p.ai);
	const xmin = 10 ** Math.floor(Math.log10(Math.min(...ridges, ...ais) / 100));
	const xmax = 10 ** Math.ceil(Math.log10(Math.max(...ridges, ...ais) * 10));
	const peaks = m.rooflines.map((r) => r.peakWork), works = m.points.map((p) => p.work);
	const ymin = 10 ** Math.floor(Math.log10(Math.min(xmin * m.peakTraffic, ...works)));
	const ymax = 10 ** Math.ceil(Math.log10(Math.max(...peaks, ...works) * 2));
	const { x0, y0, w, h: ht } = ROOF_BOX;
	const X = (v) => x0 + ((Math.log10(v) - Math.log10(xmin)) / (Math.log10(xmax) - Math.log10(xmin))) * w;
	const Y = (v) => y0 + ht - ((Math.log10(v) - Math.log10(ymin)) / (Math.log10(ymax) - Math.log10(ymin))) * ht;
	const s = svg('svg', { viewBox: `0 0 ${x0 + w + 180} ${y0 + ht + 40}`, width: '100%', role: 'img', 'aria-label': 'Roofline', class: 'ncu-roofline' });
	Object.assign(s.dataset, { testid: 'ncu-roofline', xmin: String(xmin), xmax: String(xmax), ymin: String(ymin), ymax: String(ymax) });
	s.append(svg('rect', { x: x0, y: y0, width: w, height: ht, class: 'frame' }));
	for (let e = Math.log10(xmin); e <= Math.log10(xmax); e++) {
		s.append(svg('line', { x1: X(10 ** e), x2: X(10 ** e), y1: y0, y2: y0 + ht, class: 'grid' }),
			svg('text', { x: X(10 ** e), y: y0 + ht + 14, 'text-anchor': 'middle', class: 'tick' }, `1e${e}`));
	}
	for (let e = Math.log10(ymin); e <= Math.log10(ymax); e++) {
		s.append(svg('line', { x1: x0, x2: x0 + w, y1: Y(10 ** e), y2: Y(10 ** e), class: 'grid' }),
			svg('text', { x: x0 - 4, y: Y(10 ** e) + 4, 'text-anchor': 'end', class: 'tick' }, `1e${e}`));
	}
	s.append(svg('text', { x: x0 + w / 2, y: y0 + ht + 32, 'text-anchor': 'middle', class: 'axis' }, 'Arithmetic intensity [FLOP/byte]'),
		svg('text', { x: 12, y: y0 + ht / 2, transform: `rotate(-90 12 ${y0 + ht / 2})`, 'text-anchor': 'middle', class: 'axis' }, 'Performance [FLOP/s]'));
	m.rooflines.forEach((r, i) => {
		const xs = Math.max(xmin, ymin / m.peakTraffic);
		const line = svg('polyline', { points: `${X(xs)},${Y(xs * m.peakTraffic)} ${X(r.ridge)},${Y(r.peakWork)} ${X(xmax)},${Y(r.peakWork)}`, class: `roof p${i}` });
		Object.assign(line.dataset, { testid: 'ncu-roof', precision: r.key, peakWork: String(r.peakWork), peakTraffic: String(m.peakTraffic) });
		line.append(svg('title', {}, `${r.label}: peak ${fmtSi(r.peakWork, 'FLOP/s')}, DRAM ${fmtSi(m.peakTraffic, 'B/s')}, ridge ${fmtNum(r.ridge)} FLOP/byte`));
		s.append(line, svg('text', { x: x0 + w + 6, y: Y(r.peakWork) + 4, class: `tick p${i}` }, `${r.key} ${fmtSi(r.peakWork, 'FLOP/s')}`));
	});
	m.points.forEach((p) => {
		const i = m.rooflines.findIndex((r) => r.key === p.key);
		const c = svg('circle', { cx: X(p.ai), cy: Y(p.work), r: 5, class: `point p${Math.max(0, i)}` });
		Object.assign(c.dataset, { testid: 'ncu-roof-point', precision: p.key, work: String(p.work), ai: String(p.ai) });
		c.append(svg('title', {}, `${p.label}: ${fmtSi(p.work, 'FLOP/s')} at ${fmtNum(p.ai, 4)} FLOP/byte (DRAM ${fmtSi(p.traffic, 'B/s')})`));
		s.append(c);
	});
	const out = [h('figure', { className: 'ncu-chart' }, h('figcaption', { textContent: 'Roofline (DRAM)' }), s)];
	if (!m.points.length) out.push(noData('Achieved FLOP/s', 'the kernel executed no floating-point add, multiply or FMA'));
	return out;
}

function lineChart(curve, own, testid) {
	const box = { x0: 50, y0: 10, w: 300, h: 140 };
	const pts = curve.points.filter((p) => p.warps !== null);
	const xmax = Math.max(...curve.xs, 1), ymax = Math.max(...pts.map((p) => p.warps), ...(own || []).map((p) => p.value), 1);
	const X = (v) => box.x0 + (v / xmax) * box.w, Y = (v) => box.y0 + box.h - (v / ymax) * box.h;
	const s = svg('svg', { viewBox: `0 0 ${box.x0 + box.w + 20} ${box.y0 + box.h + 34}`, width: '100%', role: 'img', 'aria-label': curve.title, class: 'ncu-line' });
	s.dataset.testid = testid;
	s.dataset.curve = curve.key;
	s.append(svg('rect', { x: box.x0, y: box.y0, width: box.w, height: box.h, class: 'frame' }),
		svg('text', { x: box.x0 - 4, y: box.y0 + 8, 'text-anchor': 'end', class: 'tick' }, String(ymax)),
		svg('text', { x: box.x0 - 4, y: box.y0 + box.h, 'text-anchor': 'end', class: 'tick' }, '0'),
		svg('text', { x: box.x0 + box.w, y: box.y0 + box.h + 14, 'text-anchor': 'end', class: 'tick' }, String(xmax)),
		svg('text', { x: box.x0 + box.w / 2, y: box.y0 + box.h + 28, 'text-anchor': 'middle', class: 'axis' }, `${curve.xLabel} → active warps per SM`));
	const path = svg('polyline', { points: pts.map((p) => `${X(p.x)},${Y(p.warps)}`).join(' '), class: 'curve' });
	path.dataset.points = JSON.stringify(pts.map((p) => [p.x, p.warps]));
	s.append(path);
	for (const p of own || []) s.append(svg('circle', { cx: X(p.x), cy: Y(p.value), r: 1.8, class: 'own' }));
	if (num(curve.at) !== null) s.append(svg('line', { x1: X(curve.at), x2: X(curve.at), y1: box.y0, y2: box.y0 + box.h, class: 'at' }));
	const note = own ? ' (line: computed here; dots: the report\'s own curve)' : ' (computed here)';
	return h('figure', { className: 'ncu-chart small' }, h('figcaption', { textContent: curve.title + note }), s);
}

function occupancyChart(sec, values) {
	const out = [];
	const theo = num(values.get(OCC_REPORT.theoretical)), ach = num(values.get(OCC_REPORT.achieved));
	const c = occupancyInputs(values);
	const calc = occupancy(c);
	const bars = [];
	if (theo !== null) bars.push({ metric: OCC_REPORT.theoretical, label: 'Theoretical occupancy', value: theo });
	if (ach !== null) bars.push({ metric: OCC_REPORT.achieved, label: 'Achieved occupancy', value: ach });
	if (calc) bars.push({ label: 'Theoretical occupancy (computed here)', value: calc.pct });
	if (bars.length) out.push(hbars('ncu-occupancy-bars', 'Occupancy (% of max warps per SM)', bars));
	else out.push(noData('Occupancy', 'no occupancy metrics'));
	if (!calc) {
		out.push(noData('Occupancy curves', 'needs the launch configuration and device attributes'));
		return out;
	}
	const lim = h('p', { className: 'kmeta', dataset: { testid: 'ncu-occupancy-limits' },
		textContent: `Computed: ${calc.blocks} blocks x ${calc.warpsPerBlock} warps = ${calc.warps} warps per SM; block limits: SM ${calc.limits.blocks}, registers ${calc.limits.registers}, shared memory ${calc.limits.shared_mem}, warps ${calc.limits.warps}` +
			(theo !== null ? (Math.abs(calc.pct - theo) < 1e-9 ? ' (equals the report\'s theoretical occupancy)' : ` (the report says ${fmtNum(theo)} %)`) : '') });
	out.push(lim);
	const own = {};
	for (const it of sec.items) for (const m of it.metrics) if (OCC_CURVES[m.metric] && m.points.length) own[OCC_CURVES[m.metric]] = m.points;
	const curves = occupancyCurves(c, Object.fromEntries(Object.entries(own).map(([k, p]) => [k, p.map((q) => q.x)])));
	out.push(h('div', { className: 'ncu-curves', dataset: { testid: 'ncu-occupancy-curves' } }, ...curves.map((cv) => lineChart(cv, own[cv.key], 'ncu-occupancy-curve'))));
	return out;
}

function memoryChart(sec) {
	const rows = memoryRows(sec);
	if (!rows.length) return [noData('Memory tables', 'no memory metrics')];
	const pct = rows.filter((r) => r.unit === '%' && r.value !== null);
	const out = [];
	if (pct.length) out.push(hbars('ncu-memory-bars', 'Memory units (%)', pct.map((r) => ({ metric: r.metric, label: `${r.level}: ${r.label}`, value: r.value }))));
	const t = h('table', { className: 'data ncu-memory', dataset: { testid: 'ncu-memory-table' } });
	const head = t.createTHead().insertRow();
	for (const k of ['Level', 'Metric', 'Unit', 'Value']) head.append(h('th', { textContent: k }));
	const b = t.createTBody();
	for (const r of rows) {
		const tr = b.insertRow();
		for (const v of [r.level, r.label, r.unit ?? '', r.text ?? 'n/a']) tr.insertCell().textContent = v;
	}
	out.push(h('figure', { className: 'ncu-chart' }, h('figcaption', { textContent: 'Memory by level' }), t));
	return out;
}

function barItems(sec, testid, why) {
	const series = barSeries(sec).filter((s) => s.bars.length);
	if (!series.length) return [noData(sec.name, why)];
	return series.map((s) => {
		const max = s.unit === '%' ? 100 : Math.max(...s.bars.map((b) => b.value), 1e-300);
		return hbars(testid, s.label || sec.name, s.bars, { max, unit: s.unit === '%' ? '%' : '' });
	});
}

// The charts of the section shown in a tab (by display name): an element,
// or null when the section has none.
export function sectionCharts(name, idx) {
	const sec = idx.sections.get(name);
	if (!sec) return null;
	let kids;
	switch (sec.id) {
	case 'SpeedOfLight': kids = solChart(sec); break;
	case 'SpeedOfLight_RooflineChart': kids = rooflineChart(idx.values); break;
	case 'WarpStateStats': kids = barItems(sec, 'ncu-stalls', 'no warp-state chart'); break;
	case 'InstructionStats': kids = barItems(sec, 'ncu-instmix', 'no instruction mix'); break;
	case 'Occupancy': kids = occupancyChart(sec, idx.values); break;
	default:
		if (/^MemoryWorkloadAnalysis/.test(sec.id)) kids = memoryChart(sec);
		else if (sec.items.some((i) => i.type === 'bar')) kids = barItems(sec, 'ncu-bars', '');
		else return null;
	}
	return h('div', { className: 'ncu-charts', dataset: { testid: 'ncu-charts', section: sec.id } }, ...kids);
}
