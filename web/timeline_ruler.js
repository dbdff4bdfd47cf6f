// timeline_ruler: the Timeline's time ruler (a canvas of its own above the
// lanes): ticks at 1, 2 or 5 times a power of ten nanoseconds, the smallest
// such step at least MIN_GAP pixels apart, labelled in the unit of the step
// (ns under 1 us, us under 1 ms, ms under 1 s, else s) as the time since the
// trace's start, exactly (a step of 20 us labels 1,240 us, not 1.24 ms). The
// area selection shows on it as a band with its duration. The canvas's
// data-ticks lists the labels drawn ("0 us|10 us|..."), data-step the step in
// ns, data-selection the selection's duration text.

import { el } from './dom.js';

export const RULER_H = 22;
const MIN_GAP = 80; // px between ticks at least
const UNITS = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us'], [1, 'ns']];

// The tick step (ns) for span ns over W px, and its unit [div, name].
export function tickStep(span, W) {
	const want = span * MIN_GAP / Math.max(1, W);
	let p = 1;
	while (p * 10 <= want) p *= 10;
	const step = [1, 2, 5, 10].map((m) => m * p).find((v) => v >= want) || 10 * p;
	return { step, unit: UNITS.find(([d]) => step >= d) || UNITS[3] };
}

// t ns in the unit [div, name] (t a multiple of a step at least div: an
// integer), grouped by thousands.
export function tickLabel(t, [div, name]) {
	const v = String(Math.round(t / div)); // grouped by hand: toLocaleString is slow for a frame's labels
	return `${v.replace(/\B(?=(\d{3})+$)/g, ',')} ${name}`;
}

// The ruler of a timeline: draw(start, end, W, sel) with the window and
// the area selection ({a, b} in ns, or null) and its duration's text.
export function timeRuler() {
	const canvas = el('canvas', { className: 'tl-ruler', dataset: { testid: 'timeline-ruler' } });
	let theme = null;
	function draw(start, end, W, sel, selText) {
		const dpr = window.devicePixelRatio || 1;
		if (canvas.width !== W * dpr || canvas.height !== RULER_H * dpr) {
			canvas.width = W * dpr; canvas.height = RULER_H * dpr;
			canvas.style.width = `${W}px`; canvas.style.height = `${RULER_H}px`;
		}
		const g = canvas.getContext('2d');
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		if (!theme) {
			const cs = getComputedStyle(document.documentElement);
			theme = { fg: cs.getPropertyValue('--fg').trim() || '#222', muted: cs.getPropertyValue('--muted').trim() || '#888' };
		}
		const { fg, muted } = theme;
		g.clearRect(0, 0, W, RULER_H);
		const x = (ns) => (ns - start) / (end - start) * W;
		if (sel) {
			const a = Math.max(0, x(sel.a)), b = Math.min(W, x(sel.b));
			g.fillStyle = 'rgba(60, 120, 220, 0.25)';
			g.fillRect(a, 0, Math.max(1, b - a), RULER_H);
		}
		const { step, unit } = tickStep(end - start, W);
		g.font = '10px sans-serif';
		g.textBaseline = 'top';
		g.strokeStyle = muted;
		g.fillStyle = fg;
		const labels = [];
		g.beginPath();
		for (let t = Math.ceil(start / step) * step; t <= end; t += step) {
			const xx = Math.round(x(t)) + 0.5;
			g.moveTo(xx, RULER_H - 8); g.lineTo(xx, RULER_H);
			const s = tickLabel(t, unit);
			labels.push(s);
			g.fillText(s, xx + 3, 2);
			for (let m = 1; m < 5; m++) { // minor ticks at fifths of the step
				const xm = Math.round(x(t + m * step / 5)) + 0.5;
				if (xm < W) { g.moveTo(xm, RULER_H - 3); g.lineTo(xm, RULER_H); }
			}
		}
		g.stroke();
		if (sel && selText) {
			const a = Math.max(0, x(sel.a)), b = Math.min(W, x(sel.b));
			const tw = g.measureText(selText).width + 8, cx = Math.min(Math.max((a + b) / 2 - tw / 2, 0), W - tw);
			g.fillStyle = 'rgba(30, 80, 180, 0.9)';
			g.fillRect(cx, RULER_H - 13, tw, 12);
			g.fillStyle = '#fff';
			g.fillText(selText, cx + 4, RULER_H - 12);
		}
		canvas.dataset.ticks = labels.join('|');
		canvas.dataset.step = String(step);
		canvas.dataset.selection = sel ? selText : '';
	}
	return { canvas, draw, retheme: () => { theme = null; } };
}
