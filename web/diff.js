// diff: the Diff page, what changed from one loaded file (BASE) to another of
// the same kind (NEW), from /api/diff (the JSON of `gpuprof diff --format
// json BASE NEW`): two selectors (files of a kind without a diff view, and
// for NEW files of another family than BASE's, are disabled). Two traces:
// the step-time comparison (each side's per-step values, from
// /api/file/ID/steps, as a strip plot with the server's median and mean
// marked), the summary line
// (as `gpuprof diff --format markdown` writes it, with the p-value), the
// steps table, and per compared table its top regressions and improvements
// (the markdown report's lists: rows by absolute delta of the table's
// primary metric, the first N of each sign), each row linking to the
// matching page of each side. Cells are printed as the CLI's text tables
// print them. The header's step/range selection goes with the request
// (each side cut to its own window, `gpuprof --step N diff`).
// Two Nsight Compute reports or two Nsight Systems files (renderWhole):
// the comparison's counts, per table its top regressions and improvements
// with every metric, and the gates.
// Hash state: base=ID, new=ID, part=PART (the chart's), top=N (rows per
// list), exact=1 (--exact-names: traces and reports), gate=EXPR (reports
// and analyses: one --fail-if).

import { fmtDur, fmtBytes } from './fmt.js';
import { el, svgEl } from './dom.js';
import { keepSel, selLabel, stepSelected } from './stepsel.js';

// the kinds with a diff view (src/server/srv_diff.c) and the family each
// compares within (an export and an analysis.json compare)
export const DIFF_KINDS = ['torch', 'ncu', 'nsys', 'nsys-analysis'];
const FAMILY = { torch: 'torch', ncu: 'ncu', nsys: 'nsys', 'nsys-analysis': 'nsys' };
const KIND_NAMES = { torch: 'PyTorch trace', ncu: 'Nsight Compute report', nsys: 'Nsight Systems file' };
const family = (f) => FAMILY[f?.kind];
const TOPS = [5, 10, 25];
const now = () => Object.fromEntries(new URLSearchParams(location.hash.slice(1)));

// The compared tables (src/views/view_diff.c's defs): title, the metric rows
// are sorted by, and the page of each side a row opens (its hash state).
// Each: name, title, key column and its title, the primary metric, the page.
const TABLES = [
	['ops', 'Operators', 'name', 'Name', 'device_self_ns', (k) => ({ view: 'ops', sel: k })],
	['ops_shape', 'Operators by input shape', 'name', 'Name [Input Shape]', 'device_self_ns', (k) => ({ view: 'ops', group: 'op+shape', sel: opName(k) })],
	['kernels', 'Kernels', 'name', 'Name', 'total_ns', (k, exact) => ({ view: 'kernels', ...(exact ? { sel: k } : { q: kernelSearch(k) }) })],
	['memory', 'Memory peaks', 'device', 'Device', 'peak_allocated_bytes', (k) => ({ view: 'memory', device: k })],
	['comm', 'Communication', 'name', 'Collective', 'latency_ns', (k) => ({ view: 'timeline', find: k })],
	['gpus', 'GPU metrics', 'gpu', 'GPU', 'utilization_pct', () => ({ view: 'overview' })],
];

// "aten::addmm [[256], [8, 512]]" (ops_shape's key: name, space, shape) -> "aten::addmm"
export function opName(key) {
	const i = key.indexOf(' [');
	return i > 0 ? key.slice(0, i) : key;
}

// A normalized kernel name's search on a side's Kernels page: its text up
// to the first '_' (docs/diff.md's rule 4 may have dropped parts after it,
// so the whole name need not occur in the name as written).
export function kernelSearch(key) {
	const i = key.indexOf('_');
	return i > 0 ? key.slice(0, i) : key;
}

// C's printf("%.6g", v): the CLI's text tables print floats so.
export function g6(v) {
	if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
	if (v === 0) return Object.is(v, -0) ? '-0' : '0';
	const [m, x] = v.toExponential(5).split('e');
	const e = +x;
	const trim = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
	if (e < -4 || e >= 6) return `${trim(m)}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
	return trim(v.toFixed(5 - e));
}

// A cell of the diff JSON's column key, as the CLI's text table prints it.
export function cell(key, v) {
	if (v === null || v === undefined) return '-';
	if (typeof v !== 'number') return String(v);
	if (key.endsWith('_ns')) return fmtDur(v);
	if (/(^|_)bytes$/.test(key)) return fmtBytes(v);
	if (key === 'delta_pct' || key === 'u' || key === 'p_value') return g6(v);
	if (key.endsWith('_pct')) return `${v.toFixed(2)} %`;
	return Number.isInteger(v) ? String(v) : g6(v);
}

// The summary line, as the markdown report writes it ("A -> B (+D, +P %):
// verdict", with an arrow), then the test of the total.
export function summaryLine(sum, total) {
	// the server's percent is of the unrounded means (the markdown's too):
	// its sign is the delta's also where the rounded delta is 0
	const d = sum.delta_step_mean_ns, p = sum.delta_step_pct;
	const neg = (v) => v < 0 || Object.is(v, -0);
	const pct = p !== null ? `, ${neg(p) ? '' : '+'}${p.toFixed(2)} %` : '';
	const plus = p !== null ? p > 0 : d > 0;
	const line = `${fmtDur(sum.base_step_mean_ns)} → ${fmtDur(sum.new_step_mean_ns)} (${plus ? '+' : ''}${fmtDur(d)}${pct}): ${sum.step_verdict}`;
	if (!total || total.p_value === null) return `${line} (no test: a side has no steps)`;
	const how = total.test === 'exact' ? 'exact' : 'normal approximation';
	return `${line}, p = ${g6(total.p_value)} (Mann-Whitney U = ${g6(total.u)}, ${how})`;
}

// The strip plot of one part: a lane per side, a dot per step (x: its
// value, on one scale for both), the server's median (solid) and mean
// (dashed) of each side.
export function stripPlot(sides, part) {
	const W = 1000, labelW = 60, laneH = 54, axisH = 26, plotW = W - labelW - 20;
	const vals = sides.flatMap((sd) => sd.values.map((x) => x.v));
	let lo = Math.min(...vals, sides[0].median, sides[1].median), hi = Math.max(...vals, sides[0].median, sides[1].median);
	if (!(hi > lo)) { lo -= 1; hi += 1; }
	const pad = (hi - lo) * 0.04;
	lo -= pad;
	hi += pad;
	const x = (v) => labelW + ((v - lo) / (hi - lo)) * plotW;
	const svg = svgEl('svg', { viewBox: `0 0 ${W} ${2 * laneH + axisH}`, width: '100%', role: 'img', 'aria-label': `Per-step ${part} time of BASE and NEW` });
	svg.dataset.testid = 'diff-steps-chart';
	svg.dataset.lo = String(lo);
	svg.dataset.hi = String(hi);
	sides.forEach((sd, i) => {
		const g = svgEl('g', {});
		g.dataset.side = sd.side;
		const y0 = i * laneH, cy = y0 + laneH / 2;
		const label = svgEl('text', { x: labelW - 10, y: cy + 4, 'text-anchor': 'end', fill: 'currentColor', 'font-size': 12 });
		label.textContent = sd.side === 'base' ? 'BASE' : 'NEW';
		g.append(label, svgEl('line', { x1: labelW, x2: labelW + plotW, y1: cy, y2: cy, stroke: 'currentColor', 'stroke-opacity': 0.15 }));
		sd.values.forEach((p, j) => {
			// a small fixed offset per step keeps equal values apart
			const dot = svgEl('circle', { cx: x(p.v), cy: cy + ((j % 5) - 2) * 4, r: 4, fill: sd.colour, 'fill-opacity': 0.75 });
			dot.dataset.step = p.step;
			dot.dataset.value = String(p.v);
			const t = svgEl('title', {});
			t.textContent = `${label.textContent} step ${p.step}: ${fmtDur(p.v)}`;
			dot.append(t);
			g.append(dot);
		});
		for (const [what, v, dash] of [['median', sd.median, ''], ['mean', sd.mean, '4 3']]) {
			const m = svgEl('line', { x1: x(v), x2: x(v), y1: y0 + 8, y2: y0 + laneH - 8, stroke: sd.colour, 'stroke-width': 2, ...(dash ? { 'stroke-dasharray': dash } : {}) });
			m.dataset[what] = String(v);
			const t = svgEl('title', {});
			t.textContent = `${label.textContent} ${what}: ${fmtDur(v)}`;
			m.append(t);
			g.append(m);
		}
		svg.append(g);
	});
	const axisY = 2 * laneH;
	svg.append(svgEl('line', { x1: labelW, x2: labelW + plotW, y1: axisY, y2: axisY, stroke: 'currentColor', 'stroke-opacity': 0.4 }));
	for (let k = 0; k <= 4; k++) {
		const v = lo + ((hi - lo) * k) / 4;
		const anchor = k === 0 ? 'start' : k === 4 ? 'end' : 'middle'; // the ends stay inside
		const t = svgEl('text', { x: x(v), y: axisY + 16, 'text-anchor': anchor, fill: 'currentColor', 'font-size': 11 });
		t.textContent = fmtDur(Math.round(v));
		svg.append(svgEl('line', { x1: x(v), x2: x(v), y1: axisY, y2: axisY + 4, stroke: 'currentColor', 'stroke-opacity': 0.4 }), t);
	}
	const key = (colour, text, dash) => {
		const sw = el('i');
		sw.style.background = colour;
		if (dash) sw.style.opacity = '0.5';
		return el('span', {}, sw, text);
	};
	const legend = el('div', { className: 'legend' }, key(sides[0].colour, 'BASE, a dot per step'), key(sides[1].colour, 'NEW, a dot per step'),
		el('span', { textContent: 'solid line: median, dashed: mean' }));
	return el('div', { className: 'diff-chart' }, svg, legend);
}

// A plain table: cols [[key, title]], rows of objects; extra(row) adds a
// last cell (the links).
function table(testid, cols, rows, extra) {
	const head = el('tr', {}, ...cols.map(([k, t]) => el('th', { textContent: t, className: k === cols[0][0] || k === 'status' || k === 'verdict' || k === 'test' ? '' : 'num' })),
		...(extra ? [el('th', { textContent: 'Open' })] : []));
	const td = (k, r) => {
		const c = el('td', { textContent: cell(k, r[k]), className: k === cols[0][0] ? 'name' : k === 'status' || k === 'verdict' || k === 'test' ? '' : 'num' });
		if (k === 'verdict') c.dataset.verdict = r[k]; // coloured (style.css)
		return c;
	};
	const body = rows.map((r) => el('tr', {}, ...cols.map(([k]) => td(k, r)),
		...(extra ? [el('td', {}, ...extra(r))] : [])));
	const t = el('table', { className: 'data' }, el('thead', {}, head), el('tbody', {}, ...body));
	t.dataset.testid = testid;
	return el('div', { className: 'table-wrap' }, t);
}

function message(testid, ...kids) {
	const p = el('p', { className: 'dist-message' }, ...kids);
	p.dataset.testid = testid;
	return p;
}

// The files that can be BASE (their kind has a diff view) and the pair of
// the hash state, or the first two files of one such kind.
function pickPair(files, s) {
	const ok = (f) => DIFF_KINDS.includes(f.kind);
	const byId = (id) => files.find((f) => String(f.id) === String(id));
	let base = byId(s.base);
	if (!base || !ok(base)) base = files.find((f) => ok(f) && files.filter((g) => family(g) === family(f)).length > 1) || files.find(ok);
	let nw = byId(s.new);
	if (base && (!nw || family(nw) !== family(base))) nw = files.find((f) => family(f) === family(base) && f.id !== base.id) || null;
	return { base, nw };
}

// true when two files of one family with a diff view are loaded (the tab shows)
export function diffAvailable(files) {
	return Object.keys(KIND_NAMES).some((k) => files.filter((f) => family(f) === k).length > 1);
}

function controls(files, base, nw, s, writeHash) {
	const pick = (testid, title, cur, disabled, key) => {
		const sel = el('select', { title }, ...files.map((f) => el('option', {
			value: String(f.id), textContent: `${f.id}: ${f.name}`, selected: cur && f.id === cur.id, disabled: disabled(f),
		})));
		sel.dataset.testid = testid;
		sel.addEventListener('change', () => writeHash({ ...now(), [key]: sel.value }, false));
		return sel;
	};
	const b = pick('diff-base', 'BASE: the file compared from', base, (f) => !DIFF_KINDS.includes(f.kind), 'base');
	const n = pick('diff-new', 'NEW: a file of the same kind as BASE', nw, (f) => !base || family(f) !== family(base), 'new');
	const swap = el('button', { textContent: '⇄', title: 'Swap BASE and NEW' });
	swap.dataset.testid = 'diff-swap';
	swap.addEventListener('click', () => writeHash({ ...now(), base: String(nw.id), new: String(base.id) }, false));
	const top = el('select', { title: 'Rows per list' }, ...TOPS.map((t) => el('option', { value: String(t), textContent: String(t), selected: String(t) === String(s.top || TOPS[0]) })));
	top.dataset.testid = 'diff-top';
	top.addEventListener('change', () => writeHash({ ...now(), top: top.value === String(TOPS[0]) ? undefined : top.value }, false));
	const exact = el('input', { type: 'checkbox', checked: s.exact === '1' });
	exact.dataset.testid = 'diff-exact';
	exact.addEventListener('change', () => writeHash({ ...now(), exact: exact.checked ? '1' : undefined }, false));
	return el('div', { className: 'tools' }, el('label', {}, 'BASE ', b), swap, el('label', {}, 'NEW ', n),
		el('label', {}, 'Rows per list ', top),
		el('label', { title: 'Match kernels by their names as written (gpuprof diff --exact-names)' }, exact, ' Exact kernel names'));
}

// The link of a row to the page of one side (the viewer's hash form).
function sideLink(file, state, s, label, testid) {
	const a = el('a', { textContent: label, href: '#' + new URLSearchParams({ file: String(file.id), ...state, ...keepSel(s) }) });
	a.dataset.testid = testid;
	a.title = `${label === 'base' ? 'BASE' : 'NEW'} (${file.name})`;
	return a;
}

// Per compared table its regressions and improvements (by the sign of the
// primary metric's delta, in the server's order), at most top of each.
function lists(d, base, nw, s, top) {
	const out = [];
	for (const [name, title, keyCol, keyTitle, prim, page] of TABLES) {
		const rows = d[name] || [];
		const cols = [[keyCol, keyTitle], ['status', 'Status'],
			[`base_${prim}`, 'Base'], [`new_${prim}`, 'New'], [`delta_${prim}`, 'Δ'], ['delta_pct', 'Δ %']];
		const links = (r) => [
			...(r.status !== 'added' ? [sideLink(base, page(r[keyCol], s.exact === '1'), s, 'base', 'link-base')] : []),
			...(r.status !== 'added' && r.status !== 'removed' ? [' '] : []),
			...(r.status !== 'removed' ? [sideLink(nw, page(r[keyCol], s.exact === '1'), s, 'new', 'link-new')] : []),
		];
		for (const [sign, what] of [[1, 'Top regressions'], [-1, 'Top improvements']]) {
			const picked = rows.filter((r) => (r[`delta_${prim}`] ?? 0) * sign > 0).slice(0, top);
			if (!picked.length) continue;
			const h = el('h3', { textContent: `${what}: ${title} (${prim.replace(/_(ns|bytes|pct)$/, '').replace(/_/g, ' ')})` });
			out.push(el('div', { className: 'diff-list' }, h, table(`diff-${sign > 0 ? 'regressions' : 'improvements'}-${name}`, cols, picked, links)));
		}
	}
	return out;
}

// The tables of the diffs of whole files (src/views/view_ncu_diff.c,
// view_nsys_diff.c): name, title, key column and its title, the primary
// metric; the page of each side a row opens. Every metric of a row is shown
// (base, new, delta of each, then the primary's percent, then p, test and
// verdict of a table with a test, as the markdown report), titled as the
// CLI titles it (a --metric: its name).
const WHOLE = {
	ncu: { page: 'ncu', tables: [['launches', 'Launches', 'launch', 'Launch', 'duration_ns'], ['hints', 'Hints', 'hint', 'Launch: Rule', 'messages']] },
	nsys: { page: 'nsys', tables: [['iterations', 'Iterations', 'iteration', 'Iteration', 'host_inclusive_ns'],
		['iteration_stats', 'Iteration distribution (per-iteration values; Mann-Whitney U, p < 0.05)', 'metric', 'Metric', 'mean_ns'],
		['ranges', 'Scoped ranges', 'name', 'Range', 'host_inclusive_ns']] },
};
const METRIC_TITLES = {
	duration_ns: 'Duration', sm_throughput_pct: 'SM %', memory_throughput_pct: 'Memory %', achieved_occupancy_pct: 'Occupancy %',
	registers_per_thread: 'Registers', messages: 'Messages', speedup_pct: 'Est. Speedup %',
	instances: 'Instances', host_inclusive_ns: 'Host Inclusive', host_exclusive_ns: 'Host Exclusive', gpu_ns: 'GPU Projected',
	iterations: 'Iterations', mean_ns: 'Mean', median_ns: 'Median',
};

// The metrics of a table's rows, in the server's column order: base_,
// new_ and delta_ of each (the test's base_iqr_ns and new_iqr_ns are none).
function metricsOf(rows) {
	return rows.length ? Object.keys(rows[0]).filter((k) => k.startsWith('base_') && `delta_${k.slice(5)}` in rows[0]).map((k) => k.slice(5)) : [];
}

// A value of a gate as the CLI's gates table prints it: in the unit of
// the gate's metric (observed and threshold: in the gate's, '%' or that).
export function gateCell(g, key) {
	const v = g[key];
	if (v === null || v === undefined) return '-';
	if ((key === 'observed' || key === 'threshold') && g.unit === '%') return `${g6(v)} %`;
	const metric = /\.([A-Za-z0-9_.]+?)\s*[<>]/.exec(g.gate)?.[1] ?? '';
	return cell(metric, v);
}

function gatesTable(gates) {
	const cols = [['gate', 'Gate'], ['row', 'Worst Row'], ['base', 'Base'], ['new', 'New'], ['delta', 'Δ'], ['observed', 'Observed'], ['threshold', 'Threshold'], ['unit', 'Unit'], ['verdict', 'Verdict']];
	const text = new Set(['gate', 'row', 'unit', 'verdict']);
	const rows = gates.map((g) => el('tr', {}, ...cols.map(([k]) => {
		const c = el('td', { textContent: text.has(k) ? g[k] ?? '' : gateCell(g, k), className: text.has(k) ? '' : 'num' });
		if (k === 'verdict') c.dataset.verdict = g[k];
		return c;
	})));
	const t = el('table', { className: 'data' }, el('thead', {}, el('tr', {}, ...cols.map(([, h]) => el('th', { textContent: h })))), el('tbody', {}, ...rows));
	t.dataset.testid = 'diff-gates';
	return el('div', { className: 'table-wrap' }, t);
}

// The Diff page of two reports or two analyses: the comparison's keys,
// each table's top regressions and improvements, the gates (hash state
// gate=EXPR: one --fail-if).
async function renderWhole(api, base, nw, s, section, tools, writeHash) {
	const kind = WHOLE[family(base)];
	// --exact-names matches the launches' kernel names (analyses have none)
	const exact = s.exact === '1' && family(base) === 'ncu';
	const q = new URLSearchParams({ base: base.id, new: nw.id, ...(exact ? { exact_names: '1' } : {}), ...(s.gate ? { fail_if: s.gate } : {}) });
	const gate = el('input', { type: 'text', value: s.gate || '', placeholder: family(base) === 'ncu' ? 'ncu.duration_ns>+3%' : 'nsys.gpu_ns>+5%', title: 'A gate (gpuprof diff --fail-if EXPR; docs/diff.md)' });
	gate.dataset.testid = 'diff-gate';
	gate.addEventListener('change', () => writeHash({ ...now(), gate: gate.value || undefined }, false));
	tools.append(el('label', {}, 'Gate ', gate));
	let d;
	try {
		d = await api(`/api/diff?${q}`);
	} catch (e) {
		return { kids: [tools, section('Diff', message('diff-error', e.message))], search: null };
	}
	const keys = Object.entries(d.diff).filter(([k]) => k !== 'base' && k !== 'new');
	const summary = el('p', { className: 'diff-summary' }, ...keys.flatMap(([k, v], i) => [i ? ', ' : '', `${k.replace(/_/g, ' ')}: ${v}`]));
	summary.dataset.testid = 'diff-summary';
	const top = TOPS.includes(+s.top) ? +s.top : TOPS[0];
	const found = [];
	for (const [name, title, keyCol, keyTitle, prim] of kind.tables) {
		const rows = d[name] || [];
		const ms = metricsOf(rows);
		const t = (m) => METRIC_TITLES[m] ?? m;
		const cols = [[keyCol, keyTitle], ['status', 'Status'], ...ms.flatMap((m) => [[`base_${m}`, `Base ${t(m)}`], [`new_${m}`, `New ${t(m)}`], [`delta_${m}`, `Δ ${t(m)}`]]), ['delta_pct', `Δ ${t(prim)} %`],
			...(rows.length && 'verdict' in rows[0] ? [['p_value', 'p'], ['test', 'Test'], ['verdict', 'Verdict']] : [])];
		const links = (r) => [
			...(r.status !== 'added' ? [sideLink(base, { view: kind.page }, {}, 'base', 'link-base')] : []),
			...(r.status !== 'added' && r.status !== 'removed' ? [' '] : []),
			...(r.status !== 'removed' ? [sideLink(nw, { view: kind.page }, {}, 'new', 'link-new')] : []),
		];
		for (const [sign, what] of [[1, 'Top regressions'], [-1, 'Top improvements']]) {
			const picked = rows.filter((r) => (r[`delta_${prim}`] ?? 0) * sign > 0).slice(0, top);
			if (picked.length) found.push(el('div', { className: 'diff-list' }, el('h3', { textContent: `${what}: ${title}` }), table(`diff-${sign > 0 ? 'regressions' : 'improvements'}-${name}`, cols, picked, links)));
		}
	}
	return {
		kids: [tools, section(`${KIND_NAMES[family(base)]}s: ${base.name} → ${nw.name}`, summary),
			section('Top regressions and improvements', ...(found.length ? found : [el('p', { className: 'empty', textContent: 'No row changed.' })])),
			...(d.gates?.length ? [section('Gates (--fail-if)', gatesTable(d.gates))] : [])],
		search: null,
	};
}

const STEP_COLS = [['part', 'Part'], ['base_mean_ns', 'Base Mean'], ['new_mean_ns', 'New Mean'], ['delta_mean_ns', 'Δ Mean'], ['delta_pct', 'Δ %'],
	['base_median_ns', 'Base Median'], ['new_median_ns', 'New Median'], ['p_value', 'p'], ['test', 'Test'], ['verdict', 'Verdict']];

// files: the server's files list; returns {kids, search}.
export async function renderDiff(api, files, s, writeHash, section) {
	const { base, nw } = pickPair(files, s);
	if (!base || !nw) {
		const n = files.filter((f) => DIFF_KINDS.includes(f.kind)).length;
		const why = n ? `only one ${KIND_NAMES[family(base)]} is loaded` : `no ${KIND_NAMES.torch} is loaded`;
		return {
			kids: [section('Diff', message('diff-message', `The Diff page compares two loaded files of one kind (BASE and NEW, as gpuprof diff does), and ${why}. Start the server with both, e.g. `,
				el('code', { textContent: 'gpuprof serve base.pt.trace.json new.pt.trace.json' }), ', or open the other one with “Open trace…” (or drop it on the page).'))],
			search: null,
		};
	}
	const tools = controls(files, base, nw, s, writeHash);
	if (family(base) !== 'torch') return renderWhole(api, base, nw, s, section, tools, writeHash);
	const enc = (v) => encodeURIComponent(v);
	const q = Object.entries({ base: base.id, new: nw.id, ...(s.exact === '1' ? { exact_names: '1' } : {}), ...keepSel(s) })
		.map(([k, v]) => `${k}=${enc(v)}`).join('&');
	const label = selLabel(s);
	const selNote = label ? message('diff-selection', `${label} of each side (each file’s own ${s.step ? 'step numbers' : 'first range of that name'})`) : null;
	let d, steps;
	try {
		// the per-step values of each side: its steps rows (a step
		// selection picks rows of them, as the diff's cut does)
		[d, ...steps] = await Promise.all([api(`/api/diff?${q}`), api(`/api/file/${base.id}/steps`), api(`/api/file/${nw.id}/steps`)]);
	} catch (e) {
		return { kids: [tools, section('Diff', ...[selNote, message('diff-error', e.message)].filter(Boolean))], search: null };
	}
	const parts = d.steps.map((r) => r.part);
	const part = parts.includes(s.part) ? s.part : 'total';
	const prow = d.steps.find((r) => r.part === part);
	const colours = ['#4e79a7', '#f28e2b'];
	const sides = ['base', 'new'].map((side, i) => ({
		side,
		colour: colours[i],
		values: steps[i].steps.filter((r) => /^\d+$/.test(r.step) && (!s.step || stepSelected(s, r.step))).map((r) => ({ step: r.step, v: r[`${part}_ns`] ?? 0 })),
		median: prow[`${side}_median_ns`],
		mean: prow[`${side}_mean_ns`],
	}));
	const partSel = el('select', { title: 'The part of the step time drawn' }, ...parts.map((p) => el('option', { value: p, textContent: p, selected: p === part })));
	partSel.dataset.testid = 'diff-part';
	partSel.addEventListener('change', () => writeHash({ ...now(), part: partSel.value === 'total' ? undefined : partSel.value }, false));
	const total = d.steps.find((r) => r.part === 'total');
	const sum = el('p', { className: 'diff-summary' }, el('strong', { textContent: 'Mean step time: ' }), el('span', { textContent: summaryLine(d.diff, total) }));
	sum.dataset.testid = 'diff-summary';
	sum.dataset.verdict = d.diff.step_verdict;
	const top = TOPS.includes(+s.top) ? +s.top : TOPS[0];
	const stepLinks = (r) => [sideLink(base, { view: 'steps' }, s, 'base', 'link-base'), ' ', sideLink(nw, { view: 'steps' }, s, 'new', 'link-new')];
	const found = lists(d, base, nw, s, top);
	return {
		kids: [tools, ...(selNote ? [selNote] : []),
			section(`Step time: ${base.name} → ${nw.name}`, sum,
				el('div', { className: 'tools' }, el('label', {}, 'Part ', partSel)), stripPlot(sides, part)),
			section('Step time per part (per-step values; Mann-Whitney U, p < 0.05)', table('diff-steps', STEP_COLS, d.steps, stepLinks)),
			section('Top regressions and improvements', ...(found.length ? found : [el('p', { className: 'empty', textContent: 'No row changed.' })]),
				el('p', { className: 'hint', textContent: 'Rows by the absolute change of the metric in brackets; a table’s rows are totals of each profile (no per-row test: the step time above carries the significance).' }))],
		search: null,
	};
}
