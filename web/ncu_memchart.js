// ncu_memchart: the memory hierarchy of a kernel as a diagram (SVG), as
// Nsight Compute's Memory Chart shows it: the kernel's global load and
// store requests into the L1/TEX cache, the bytes moved between L1/TEX and
// L2 and between L2 and device memory (DRAM) in each direction, each
// level's hit rate and throughput, and the DRAM bandwidth; beside L1/TEX a
// Shared Memory box with the kernel's shared load and store instructions
// and shared memory's load and store wavefronts and bank conflicts (n/a
// where the report lacks them, as every absent number). Values and units
// are ncu's text in its auto units (GET .../ncu/raw?print_units=auto, as
// rawIndex of ncu_summary.js indexes it); every number is a <text> with
// data-key, data-metric, data-value (the number in that unit) and
// data-unit. Drawn in the Memory Workload Analysis tabs (ncu.js).
//
// The first half is pure (node imports it in the tests).

import { el, svgEl } from './dom.js';

// The numbers of the diagram by key: candidates (the first the report has
// wins) and the label shown.
export const MEMCHART = {
	ld_requests: { label: 'global loads', metrics: ['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'], unit: 'requests' },
	st_requests: { label: 'global stores', metrics: ['l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'], unit: 'requests' },
	l1_hit: { label: 'Hit rate', metrics: ['l1tex__t_sector_hit_rate.pct'] },
	l1_throughput: { label: 'Throughput', metrics: ['l1tex__throughput.avg.pct_of_peak_sustained_active', 'l1tex__throughput.avg.pct_of_peak_sustained_elapsed'] },
	l2_to_l1: { label: 'read', metrics: ['l1tex__m_xbar2l1tex_read_bytes.sum'] },
	l1_to_l2: { label: 'written', metrics: ['l1tex__m_l1tex2xbar_write_bytes.sum'] },
	l2_hit: { label: 'Hit rate', metrics: ['lts__t_sector_hit_rate.pct'] },
	l2_throughput: { label: 'Throughput', metrics: ['lts__throughput.avg.pct_of_peak_sustained_elapsed'] },
	dram_to_l2: { label: 'read', metrics: ['dram__bytes_read.sum'] },
	l2_to_dram: { label: 'written', metrics: ['dram__bytes_write.sum'] },
	dram_throughput: { label: 'Throughput', metrics: ['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed'] },
	dram_bandwidth: { label: 'Bandwidth', metrics: ['dram__bytes.sum.per_second'] },
	// the SASS-level store wavefronts stand in where a report (2021.1) has
	// no L1/TEX-level ones
	shared_ld: { label: 'shared loads', metrics: ['smsp__sass_inst_executed_op_shared_ld.sum', 'sass__inst_executed_shared_loads'], unit: 'inst' },
	shared_st: { label: 'shared stores', metrics: ['smsp__sass_inst_executed_op_shared_st.sum', 'sass__inst_executed_shared_stores'], unit: 'inst' },
	shared_ld_wavefronts: { label: 'Wavefronts ld', metrics: ['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'] },
	shared_st_wavefronts: { label: 'Wavefronts st', metrics: ['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum'] },
	shared_ld_conflicts: { label: 'Bank conflicts ld', metrics: ['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum'] },
	shared_st_conflicts: { label: 'Bank conflicts st', metrics: ['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum'] },
};

// key -> {metric, unit, value, text, description} (metric null: absent).
export function memchartValues(metrics) {
	const out = {};
	for (const [k, d] of Object.entries(MEMCHART)) {
		const metric = d.metrics.find((m) => metrics.has(m)) || null;
		const m = metric ? metrics.get(metric) : null;
		out[k] = { metric, unit: m ? m.unit : '', value: m && typeof m.value === 'number' ? m.value : null, text: m ? m.text : null, description: m ? m.description : null };
	}
	return out;
}

// --- drawing ---

const svg = (tag, attrs = {}, ...kids) => {
	const e = svgEl(tag, attrs);
	e.append(...kids);
	return e;
};

// The layout: four boxes stacked, the links between them, the Shared
// Memory box (shared: its left edge, width and height) to the right of
// L1/TEX; sizes in the SVG's units (about a pixel each at the page's width).
export const MEMCHART_BOX = { x: 20, w: 250, h: 66, gap: 74, top: 10, width: 680, shared: { x: 470, w: 200, h: 104 } };

function value(v, key, x, y, label, anchor = 'start') {
	const d = MEMCHART[key];
	const shown = v.text === null ? 'n/a' : `${v.text}${v.unit ? ` ${v.unit}` : d.unit ? ` ${d.unit}` : ''}`;
	const t = svg('text', { x, y, 'text-anchor': anchor, class: 'value' }, `${label ?? d.label} ${shown}`);
	Object.assign(t.dataset, { testid: 'ncu-memchart-value', key });
	if (v.metric) Object.assign(t.dataset, { metric: v.metric, unit: v.unit, text: v.text ?? '' });
	if (v.value !== null) t.dataset.value = String(v.value);
	// the hover: the metric and its description (a <title> of a group, so
	// that the text's own content is the value alone)
	return svg('g', {}, svg('title', {}, v.metric ? `${v.metric}${v.description ? `: ${v.description}` : ''}` : 'Not in this report (collect the MemoryWorkloadAnalysis sections)'), t);
}

function box(level, title, bx, by, bw, bh) {
	const g = svg('g', { class: `node ${level}` });
	Object.assign(g.dataset, { testid: 'ncu-memchart-node', level });
	g.append(svg('rect', { x: bx, y: by, width: bw, height: bh, rx: 6, class: 'box' }),
		svg('text', { x: bx + 10, y: by + 20, class: 'title' }, title));
	return g;
}

// The Shared Memory box at L1/TEX's height (y1) and the kernel's link to
// it: out of the kernel box's right side (y0: its top), then down.
function sharedNode(vals, y0, y1) {
	const { x, w, shared: b } = MEMCHART_BOX;
	const g = box('shared', 'Shared Memory', b.x, y1, b.w, b.h);
	['shared_ld_wavefronts', 'shared_st_wavefronts', 'shared_ld_conflicts', 'shared_st_conflicts']
		.forEach((k, j) => g.append(value(vals[k], k, b.x + 10, y1 + 40 + j * 18)));
	const ly = y0 + 14, lx = b.x + b.w * 0.85;
	const link = svg('path', { d: `M${x + w + 2},${ly} H${lx} V${y1 - 4}`, fill: 'none', class: 'link down', 'marker-end': 'url(#ncu-arrow)' });
	const labels = ['shared_ld', 'shared_st'].map((k, j) => value(vals[k], k, x + w + 16, ly + 22 + j * 20, `↓ ${MEMCHART[k].label}`));
	return [g, link, ...labels];
}

// The diagram of vals (memchartValues) as a figure.
export function memoryDiagram(vals) {
	const { x, w, h, gap, top, width } = MEMCHART_BOX;
	const y = (i) => top + i * (h + gap);
	const height = y(4) - gap + 10;
	const s = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'aria-label': 'Memory chart', class: 'ncu-memchart' });
	s.dataset.testid = 'ncu-memchart';
	const nodes = [
		{ level: 'kernel', title: 'Kernel (SMs)', rows: [] },
		{ level: 'l1', title: 'L1/TEX cache', rows: ['l1_hit', 'l1_throughput'] },
		{ level: 'l2', title: 'L2 cache', rows: ['l2_hit', 'l2_throughput'] },
		{ level: 'dram', title: 'Device memory (DRAM)', rows: ['dram_throughput', 'dram_bandwidth'] },
	];
	nodes.forEach((n, i) => {
		const g = box(n.level, n.title, x, y(i), w, h);
		n.rows.forEach((k, j) => g.append(value(vals[k], k, x + 10, y(i) + 40 + j * 18)));
		s.append(g);
		if (n.level === 'l1') s.append(...sharedNode(vals, y(0), y(1)));
	});
	// links: requests and written bytes go down (left arrow), read bytes up (right arrow)
	const links = [
		{ down: ['ld_requests', 'st_requests'], up: null },
		{ down: ['l1_to_l2'], up: 'l2_to_l1' },
		{ down: ['l2_to_dram'], up: 'dram_to_l2' },
	];
	links.forEach((l, i) => {
		const y0 = y(i) + h, y1 = y(i + 1);
		const ax = x + w * 0.35, bx = x + w * 0.65;
		s.append(svg('line', { x1: ax, y1: y0 + 2, x2: ax, y2: y1 - 4, class: 'link down', 'marker-end': 'url(#ncu-arrow)' }));
		if (l.up) s.append(svg('line', { x1: bx, y1: y1 - 2, x2: bx, y2: y0 + 4, class: 'link up', 'marker-end': 'url(#ncu-arrow)' }));
		const tx = x + w + 16;
		l.down.forEach((k, j) => s.append(value(vals[k], k, tx, y0 + 22 + j * 20, `↓ ${MEMCHART[k].label}`)));
		if (l.up) s.append(value(vals[l.up], l.up, tx, y0 + 22 + l.down.length * 20, `↑ ${MEMCHART[l.up].label}`));
	});
	s.prepend(svg('defs', {}, svg('marker', { id: 'ncu-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
		svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
	return el('figure', { className: 'ncu-chart ncu-memchart-fig' },
		el('figcaption', { textContent: 'Memory chart (bytes between the levels, hit rates, throughput as % of peak)' }), s);
}
