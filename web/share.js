// share: the Operators page's share of each operator in the time the table
// is sorted by (the server's order: device self time, or host self time
// for a trace without GPU work), as a % column and a bar chart of the
// largest shares; and the Kernels table's Tensor Core badge.

import { fmt, fmtDur, title } from './fmt.js';
import { el, svgEl } from './dom.js';

const TOP = 10; // operators in the chart; the rest are one "Other" bar

// rows: the API's operators; sortedBy: its tree.sorted_by ("device_self").
// Returns {rows (each with KEY_share_pct after KEY_ns), key, total}; the
// rows unchanged when the key is not a column or sums to 0.
export function withShare(rows, sortedBy) {
	const key = `${sortedBy}_ns`;
	const total = rows.reduce((s, r) => s + (typeof r[key] === 'number' ? r[key] : 0), 0);
	if (!rows.length || !(key in rows[0]) || total <= 0) return { rows, key, total: 0 };
	const pct = `${sortedBy}_share_pct`;
	const out = rows.map((r) => {
		const o = {};
		for (const [k, v] of Object.entries(r)) {
			o[k] = v;
			if (k === key) o[pct] = typeof v === 'number' ? (100 * v) / total : null;
		}
		return o;
	});
	return { rows: out, key, total };
}

// A bar per operator of the TOP largest shares, then one for the others.
export function shareChart(share) {
	if (!share.total) return '';
	const { key, total } = share;
	const sorted = share.rows.filter((r) => r[key] > 0).sort((a, b) => b[key] - a[key]);
	const bars = sorted.slice(0, TOP).map((r) => ({ name: r.name, v: r[key] }));
	const rest = sorted.slice(TOP).reduce((s, r) => s + r[key], 0);
	if (rest > 0) bars.push({ name: `Other (${sorted.length - TOP} operators)`, v: rest });
	const rowH = 20, labelW = 330, barW = 520, W = labelW + barW + 150;
	const svg = svgEl('svg', { viewBox: `0 0 ${W} ${bars.length * rowH}`, width: '100%', role: 'img', 'aria-label': `Share of ${title(key)}` });
	svg.style.maxWidth = `${W}px`;
	const max = bars[0]?.v || 1;
	bars.forEach((b, i) => {
		const pct = (100 * b.v) / total;
		const g = svgEl('g', {});
		g.dataset.name = b.name;
		g.dataset.pct = String(pct);
		const label = svgEl('text', { x: labelW - 6, y: i * rowH + 14, 'text-anchor': 'end', 'font-size': 12, fill: 'currentColor' });
		label.textContent = b.name.length > 48 ? `${b.name.slice(0, 47)}…` : b.name;
		const w = (barW * b.v) / max;
		const rect = svgEl('rect', { x: labelW, y: i * rowH + 3, width: w, height: rowH - 6, fill: '#4e79a7' });
		const tip = svgEl('title', {});
		tip.textContent = `${b.name}: ${fmtDur(b.v)} (${fmt('pct', pct)})`;
		rect.append(tip);
		const val = svgEl('text', { x: labelW + w + 6, y: i * rowH + 14, 'font-size': 12, fill: 'currentColor' });
		val.textContent = fmt('pct', pct);
		g.append(label, rect, val);
		svg.append(g);
	});
	svg.dataset.testid = 'ops-share-chart';
	return el('figure', { className: 'share' }, svg, el('figcaption', { className: 'note', textContent: `Share of the operators' ${title(key).toLowerCase()} time (${fmtDur(total)} in all)` }));
}

// The Kernels table's tc_used cell: a badge when the kernel uses Tensor Cores.
export function tcBadge(v) {
	if (v !== true) return null;
	return el('span', { className: 'badge tc', title: 'Uses Tensor Cores', textContent: 'Tensor Cores' });
}
