// timeline_area: the Timeline's area selection (as Perfetto's): a drag over
// the lanes selects a time range on the lanes it crosses (a drag on the
// ruler: on every lane); the table under the timeline then sums the slices
// of those lanes in the range per name, from
// /api/file/ID/timeline?agg=1&start_ns=A&end_ns=B&tracks=K,L
// (views/view_timeline_agg.c: count, total and self time, clipped to the
// range; most total time first). Esc or "Clear" drops it. State in the
// hash: area=A,B (ns from the trace's start) and area_tracks=K,L (absent:
// every lane).

import { fmtDur } from './fmt.js';
import { el } from './dom.js';

export function areaSelection({ api, TL, s, save, onChange }) {
	const parts = (s.area || '').split(',').map(Number);
	let sel = parts.length === 2 && parts.every(Number.isFinite) && parts[1] > parts[0]
		? { a: parts[0], b: parts[1], tracks: (s.area_tracks || '').split(',').filter(Boolean).map(Number) } : null;
	let seq = 0;
	const head = el('div', { className: 'kmeta', dataset: { testid: 'timeline-area-head' } });
	const body = el('tbody');
	const table = el('table', { className: 'tl-area-table', dataset: { testid: 'timeline-area' } },
		el('thead', {}, el('tr', {}, ...['Name', 'Count', 'Total', 'Self'].map((h) => el('th', { textContent: h })))), body);
	const clear = el('button', { textContent: 'Clear', title: 'Drop the selection (Esc)' });
	const box = el('div', { className: 'tl-area', hidden: true }, el('div', { className: 'tools' }, head, clear), table);
	clear.addEventListener('click', () => set(null));

	async function load() {
		const my = ++seq;
		if (!sel) { box.hidden = true; return; }
		box.hidden = false;
		head.textContent = 'Summing the selection…';
		body.replaceChildren();
		const tq = sel.tracks.length ? `&tracks=${sel.tracks.join(',')}` : '';
		let d;
		try {
			d = await api(`${TL}?agg=1&start_ns=${Math.round(sel.a)}&end_ns=${Math.round(sel.b)}${tq}`);
		} catch (e) {
			if (my === seq) head.textContent = `Could not sum the selection: ${e.message}`;
			return;
		}
		if (my !== seq) return;
		const g = d.agg;
		head.textContent = `Selection ${fmtDur(g.start_ns)} – ${fmtDur(g.end_ns)} (${fmtDur(g.dur_ns)}) · ${g.tracks} lane${g.tracks === 1 ? '' : 's'} · ${g.slices.toLocaleString('en-US')} slice${g.slices === 1 ? '' : 's'}`;
		head.dataset.slices = String(g.slices);
		body.replaceChildren(...d.names.map((n) => el('tr', { dataset: { name: n.name } },
			el('td', { textContent: n.name }), el('td', { className: 'num', textContent: n.count.toLocaleString('en-US') }),
			el('td', { className: 'num', textContent: fmtDur(n.total_ns) }), el('td', { className: 'num', textContent: fmtDur(n.self_ns) }))));
		table.dataset.rows = String(d.names.length);
	}

	function set(v) {
		sel = v && v.b > v.a ? { a: Math.round(v.a), b: Math.round(v.b), tracks: [...(v.tracks || [])].sort((x, y) => x - y) } : null;
		s.area = sel ? `${sel.a},${sel.b}` : '';
		s.area_tracks = sel ? sel.tracks.join(',') : '';
		save();
		onChange();
		load();
	}
	if (sel) load();

	return {
		box, set, get: () => sel,
		text: () => (sel ? fmtDur(sel.b - sel.a) : ''),
		key(k) {
			if (k === 'Escape' && sel) { set(null); return true; }
			return false;
		},
	};
}
