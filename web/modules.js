// modules: the Module page of a trace, over /api/file/ID/modules (the JSON
// of `gpuprof modules`): the nn.Module hierarchy as a tree, one line per
// module (indented by its depth, a button folds its children), with two
// bars scaled to the largest top-level module: host total and device total,
// each with its self part darker; then the same rows as a table (search,
// sort, CSV). A PyTorch Lightning trace (/api/file/ID/lightning, the JSON of
// `gpuprof lightning`, says lightning_trace) has its LightningModule tree
// and table first, drawn alike. State in the hash: fold and plfold (the
// rows folded in each tree, comma-separated), sort, dir, q.

import { fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { el, svgEl } from './dom.js';

const HOST = ['#4e79a7', '#a0cbe8'], DEVICE = ['#59a14f', '#8cd17d'];

// One bar of total `total` with its self part `self`, scaled to max.
function bar(tid, kind, row, total, self, max, colors) {
	const W = 200, H = 14;
	const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
		'aria-label': `${kind} ${fmtDur(total)}` });
	svg.dataset.testid = `${tid}-${kind}-${row}`;
	const w = (v) => (max > 0 ? (W * Math.max(0, Math.min(v, max))) / max : 0);
	const all = svgEl('rect', { x: 0, y: 1, width: w(total), height: H - 2, fill: colors[1] });
	all.dataset.part = 'total';
	const own = svgEl('rect', { x: 0, y: 1, width: w(Math.min(self, total)), height: H - 2, fill: colors[0] });
	own.dataset.part = 'self';
	const tip = svgEl('title', {});
	tip.textContent = `${kind}: ${fmtDur(total)} (self ${fmtDur(self)})`;
	svg.append(all, own, tip);
	return svg;
}

// tid: the test ids' prefix (module, lightning)
function treeLines(tid, rows, folded, toggle) {
	const max = Math.max(0, ...rows.filter((r) => r.depth === 0).map((r) => Math.max(r.host_ns, r.device_ns)));
	const lines = [];
	let hideBelow = Infinity; // depth under a folded row
	for (const r of rows) {
		if (r.depth > hideBelow) continue;
		hideBelow = folded.has(r.row) ? r.depth : Infinity;
		const btn = r.children
			? el('button', { className: 'fold', textContent: folded.has(r.row) ? '▸' : '▾',
				title: 'Fold or unfold its children', onclick: () => toggle(r.row), dataset: { testid: `${tid}-fold-${r.row}` } })
			: el('span', { className: 'fold' });
		lines.push(el('div', { className: 'module-line', dataset: { testid: `${tid}-row-${r.row}`, depth: String(r.depth) } },
			el('span', { className: 'module-name', style: `padding-left:${r.depth * 16}px` }, btn,
				el('span', { textContent: `${r.name} (${r.occurrences}×)` })),
			bar(tid, 'host', r.row, r.host_ns, r.self_host_ns, max, HOST),
			el('span', { className: 'module-num', textContent: fmtDur(r.host_ns) }),
			bar(tid, 'device', r.row, r.device_ns, r.self_device_ns, max, DEVICE),
			el('span', { className: 'module-num', textContent: fmtDur(r.device_ns) })));
	}
	return lines;
}

// A foldable tree of rows ({row, depth, name, occurrences, host_ns,
// self_host_ns, device_ns, self_device_ns, children}) with its legend,
// folded rows kept in the hash under key.
function foldTree(tid, rows, s, key, writeHash) {
	const folded = new Set((s[key] || '').split(',').filter((x) => x !== '').map(Number));
	const tree = el('div', { className: 'module-tree', dataset: { testid: `${tid}-tree` } });
	const draw = () => tree.replaceChildren(...treeLines(tid, rows, folded, (row) => {
		if (folded.has(row)) folded.delete(row);
		else folded.add(row);
		s[key] = [...folded].sort((a, b) => a - b).join(',');
		writeHash({ ...s });
		draw();
	}));
	draw();
	const legend = el('div', { className: 'legend' },
		...[['Host self', HOST[0]], ['Host total', HOST[1]], ['Device self', DEVICE[0]], ['Device total', DEVICE[1]]]
			.map(([text, color]) => el('span', {}, el('i', { style: `background:${color}` }), text)));
	return el('div', {}, legend, tree);
}

// gpuprof lightning's rows (parent by name) as the tree's rows
function lightningRows(mods) {
	const kids = new Map();
	for (const m of mods) if (m.parent !== null) kids.set(m.parent, (kids.get(m.parent) || 0) + 1);
	return mods.map((m, i) => ({ row: i, depth: m.depth, name: m.name, occurrences: m.occurrences,
		host_ns: m.host_total_ns, self_host_ns: m.host_self_ns, device_ns: m.device_total_ns,
		self_device_ns: m.device_self_ns, children: kids.get(m.name) || 0 }));
}

export async function renderModules(api, id, s, writeHash, section, tableState, onTableState) {
	const [d, pl] = await Promise.all([api(`/api/file/${id}/modules`), api(`/api/file/${id}/lightning`)]);
	const rows = d.modules;
	const sum = d.summary;
	const note = el('p', { className: 'note', dataset: { testid: 'modules-note' },
		textContent: rows.length
			? `${sum.modules} modules, ${sum.module_calls} module calls, from ${sum.python_functions} python_function events. Bars: host and device total, the darker part self time, scaled to the largest top-level module.`
			: 'No nn.Module events: record the trace with with_stack=True (python_function events named "nn.Module: ...").' });
	const table = dataTable({ name: 'modules', rows, state: tableState(s), onState: onTableState(s) });
	const kids = [note, section('Module tree', foldTree('module', rows, s, 'fold', writeHash)), section('Modules', table)];
	if (!pl.lightning.lightning_trace) return { search: table, kids };
	const plNote = el('p', { className: 'note', dataset: { testid: 'lightning-note' },
		textContent: `A PyTorch Lightning trace: ${pl.lightning.modules} LightningModule modules, from its [pl][module] events.` });
	const plTable = dataTable({ name: 'lightning', rows: pl.modules });
	const plKids = [plNote, section('Lightning modules', foldTree('lightning', lightningRows(pl.modules), s, 'plfold', writeHash)), section('Lightning', plTable)];
	// without nn.Module events the empty tree and table would only clutter
	return rows.length ? { search: table, kids: [...plKids, ...kids] } : { search: plTable, kids: [...plKids, note] };
}
