// charts: the step-time breakdown as a stacked SVG bar and the memory
// curve on a canvas. No library: a few shapes each.

import { fmtBytes, fmtDur } from './fmt.js';

const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#9c755f', '#bab0ac'];
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
	parts.forEach((p, i) => {
		const w = (1000 * Math.max(0, p.avg_ns)) / total;
		const r = document.createElementNS(SVG, 'rect');
		r.setAttribute('x', x);
		r.setAttribute('y', 0);
		r.setAttribute('width', w);
		r.setAttribute('height', 40);
		r.setAttribute('fill', COLORS[i % COLORS.length]);
		const t = document.createElementNS(SVG, 'title');
		t.textContent = `${p.part}: ${fmtDur(p.avg_ns)} (${p.pct === null ? '-' : p.pct.toFixed(2) + ' %'})`;
		r.append(t);
		svg.append(r);
		x += w;
	});
	const legend = document.createElement('div');
	legend.className = 'legend';
	parts.forEach((p, i) => {
		const s = document.createElement('span');
		const sw = document.createElement('i');
		sw.style.background = COLORS[i % COLORS.length];
		s.append(sw, `${p.part} ${p.pct === null ? '' : p.pct.toFixed(2) + ' %'}`);
		legend.append(s);
	});
	box.append(svg, legend);
	return box;
}

// points: [{time_ns, allocated_bytes, reserved_bytes}]
export function memoryCurve(points) {
	const canvas = document.createElement('canvas');
	canvas.dataset.testid = 'memory-curve';
	const draw = () => {
		const dpr = window.devicePixelRatio || 1;
		const w = canvas.clientWidth || 800, h = canvas.clientHeight || 320;
		canvas.width = w * dpr;
		canvas.height = h * dpr;
		const g = canvas.getContext('2d');
		g.scale(dpr, dpr);
		const css = getComputedStyle(document.documentElement);
		const fg = css.getPropertyValue('--fg').trim(), line = css.getPropertyValue('--line').trim();
		g.clearRect(0, 0, w, h);
		g.font = '12px system-ui, sans-serif';
		g.fillStyle = fg;
		if (!points.length) {
			g.fillText('No memory records with totals for this device.', 20, 30);
			return;
		}
		const pad = { l: 80, r: 20, t: 20, b: 30 };
		const t0 = points[0].time_ns, t1 = points[points.length - 1].time_ns || t0 + 1;
		const ymax = Math.max(1, ...points.map((p) => Math.max(p.allocated_bytes ?? 0, p.reserved_bytes ?? 0)));
		const X = (t) => pad.l + ((t - t0) / Math.max(1, t1 - t0)) * (w - pad.l - pad.r);
		const Y = (v) => h - pad.b - (v / ymax) * (h - pad.t - pad.b);
		g.strokeStyle = line;
		g.beginPath();
		g.moveTo(pad.l, pad.t);
		g.lineTo(pad.l, h - pad.b);
		g.lineTo(w - pad.r, h - pad.b);
		g.stroke();
		g.fillText(fmtBytes(ymax), 4, pad.t + 4);
		g.fillText('0 B', 4, h - pad.b);
		g.fillText(fmtDur(t0), pad.l, h - 8);
		const end = fmtDur(t1);
		g.fillText(end, w - pad.r - g.measureText(end).width, h - 8);
		[['allocated_bytes', '#4e79a7'], ['reserved_bytes', '#f28e2b']].forEach(([k, c], i) => {
			g.strokeStyle = c;
			g.beginPath();
			points.forEach((p, j) => (j ? g.lineTo : g.moveTo).call(g, X(p.time_ns), Y(p[k] ?? 0)));
			g.stroke();
			g.fillStyle = c;
			g.fillText(k === 'allocated_bytes' ? 'Allocated' : 'Reserved', pad.l + 10 + i * 90, pad.t);
		});
	};
	requestAnimationFrame(draw);
	canvas.redraw = draw;
	return canvas;
}
