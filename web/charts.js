// charts: the step-time breakdown as a stacked SVG bar (the Memory page
// draws its curve itself, web/memory.js). No library: a few shapes.

import { fmtDur } from './fmt.js';
import { partColor } from './palette.js';

const SVG = 'http://www.w3.org/2000/svg';

// parts: [{part, avg_ns, pct}] without the Total row.
export function stackedBar(parts) {
	const box = document.createElement('div');
	const total = parts.reduce((s, p) => s + Math.max(0, p.avg_ns), 0) || 1;
	const svg = document.createElementNS(SVG, 'svg');
	svg.setAttribute('viewBox', '0 0 1000 40');
	svg.setAttribute('width', '100%');
	svg.setAttribute('height', '40');
	svg.setAttribute('preserveAspectRatio', 'none');
	svg.setAttribute('role', 'img');
	svg.setAttribute('aria-label', 'Average step time breakdown');
	svg.dataset.testid = 'breakdown-chart';
	let x = 0;
	parts.forEach((p) => {
		const w = (1000 * Math.max(0, p.avg_ns)) / total;
		const r = document.createElementNS(SVG, 'rect');
		r.setAttribute('x', x);
		r.setAttribute('y', 0);
		r.setAttribute('width', w);
		r.setAttribute('height', 40);
		r.setAttribute('fill', partColor(p.part));
		r.dataset.part = p.part;
		const t = document.createElementNS(SVG, 'title');
		t.textContent = `${p.part}: ${fmtDur(p.avg_ns)} (${p.pct === null ? '-' : p.pct.toFixed(2) + ' %'})`;
		r.append(t);
		svg.append(r);
		x += w;
	});
	const legend = document.createElement('div');
	legend.className = 'legend';
	parts.forEach((p) => {
		const s = document.createElement('span');
		const sw = document.createElement('i');
		sw.style.background = partColor(p.part);
		s.append(sw, `${p.part} ${p.pct === null ? '' : p.pct.toFixed(2) + ' %'}`);
		legend.append(s);
	});
	box.append(svg, legend);
	return box;
}

