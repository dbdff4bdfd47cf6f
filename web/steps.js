// steps: the Steps page of a trace, over /api/file/ID/steps (the JSON of
// `gpuprof steps --format json`): one stacked bar per step (SVG, the parts
// of its time in the CLI's column order) and the per-step table (sortable,
// searchable, CSV). State in the hash: sort, dir, q (the table). With a
// step selection (web/stepsel.js) every step stays listed and the selected
// ones are marked; a click on a step's bar or row selects that step.

import { fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { svgEl } from './dom.js';
import { partColor, partOfKey } from './palette.js';

const NOT_PARTS = new Set(['start_ns', 'end_ns', 'total_ns']);

// rows: the API's steps; every *_ns column but start, end and total is a part.
// sel: {selected(step) -> bool, select(step)} (optional).
export function stepBars(rows, sel) {
	const parts = rows.length ? Object.keys(rows[0]).filter((k) => k.endsWith('_ns') && !NOT_PARTS.has(k)) : [];
	const box = document.createElement('div');
	const rowH = 22, labelW = 90, W = 1000;
	const max = Math.max(1, ...rows.map((r) => parts.reduce((s, p) => s + Math.max(0, r[p] ?? 0), 0)));
	const svg = svgEl('svg', { viewBox: `0 0 ${W + labelW} ${rows.length * rowH}`, width: '100%', role: 'img', 'aria-label': 'Step time breakdown per step' });
	svg.dataset.testid = 'steps-chart';
	rows.forEach((r, i) => {
		const g = svgEl('g', {});
		g.dataset.step = r.step;
		if (sel) {
			g.classList.add('pick');
			if (sel.selected(r.step)) g.classList.add('sel');
			g.addEventListener('click', () => sel.select(r.step));
		}
		const label = svgEl('text', { x: labelW - 8, y: i * rowH + rowH * 0.7, 'text-anchor': 'end', fill: 'currentColor', 'font-size': 12 });
		label.textContent = `Step ${r.step}`;
		g.append(label);
		let x = labelW;
		parts.forEach((p) => {
			const w = (W * Math.max(0, r[p] ?? 0)) / max;
			const rect = svgEl('rect', { x, y: i * rowH + 2, width: w, height: rowH - 4, fill: partColor(partOfKey(p)) });
			rect.dataset.part = p;
			const t = svgEl('title', {});
			t.textContent = `Step ${r.step} ${partOfKey(p)}: ${fmtDur(r[p] ?? 0)}`;
			rect.append(t);
			g.append(rect);
			x += w;
		});
		svg.append(g);
	});
	const legend = document.createElement('div');
	legend.className = 'legend';
	parts.forEach((p) => {
		const s = document.createElement('span');
		const sw = document.createElement('i');
		sw.style.background = partColor(partOfKey(p));
		s.append(sw, partOfKey(p));
		legend.append(s);
	});
	box.append(svg, legend);
	return box;
}

export async function renderSteps(api, id, s, writeHash, section, sel) {
	const d = await api(`/api/file/${id}/steps`);
	const pick = sel && ((r) => /^\d+$/.test(r.step) && sel.selected(r.step));
	const table = dataTable({ name: 'steps', rows: d.steps, state: { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' },
		onState: (t) => writeHash({ ...s, sort: t.sort, dir: t.dir, q: t.q }),
		onOpen: sel && ((r) => { if (/^\d+$/.test(r.step) && !pick(r)) sel.select(r.step); }), selected: pick });
	return {
		kids: [
			section(`Steps (${d.steps.length})`, d.steps.length ? stepBars(d.steps, sel) : document.createTextNode('')),
			section('Per-step breakdown', table),
		],
		search: table,
	};
}
