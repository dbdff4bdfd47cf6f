// timeline_hover: the Timeline's hover card: over an event, its name, kind,
// start (since the trace's start), duration, self time (its duration less
// its direct children's: the `self_ns` of ?links=ROW, asked 60 ms after
// the pointer settles and kept per row) and lane; over a merged span or
// instants, their count and extent. data-testid timeline-hover, data-row.

import { fmtDur } from './fmt.js';
import { el } from './dom.js';

export function hoverCard({ api, TL, laneName }) {
	const card = el('div', { className: 'tl-hover', hidden: true, dataset: { testid: 'timeline-hover' } });
	const self = new Map(); // row -> self_ns
	let timer = null, shown = null;

	function lines(it, lane) {
		const where = lane ? laneName(lane) : `track ${it.track}`;
		if (it.type === 'event') {
			const sv = self.get(it.row);
			return [it.name, `${it.kind} · ${where}`, `start ${fmtDur(it.ts)}`, `duration ${fmtDur(it.dur)}`,
				`self ${sv === undefined ? '…' : sv === null ? 'not known' : fmtDur(sv)}`];
		}
		if (it.type === 'instant') return [it.name, `${it.kind} · ${where}`, `instant at ${fmtDur(it.ts)}`];
		if (it.type === 'instants') return [`${it.count} instants`, where, `${fmtDur(it.ts)} – ${fmtDur(it.end)}`, 'zoom in to see them'];
		return [`${it.count} short events`, where, `${fmtDur(it.ts)} – ${fmtDur(it.end)}`, `busy ${fmtDur(it.busy_ns)}`, 'zoom in to see them'];
	}

	function render(it, lane, px, py) {
		card.replaceChildren(...lines(it, lane).map((t, i) => el('div', { className: i ? '' : 'tl-hover-name', textContent: t })));
		card.dataset.row = it.type === 'event' ? String(it.row) : '';
		card.hidden = false;
		// right of the pointer, or left of it where the card would pass the lanes' right edge
		const room = (card.offsetParent?.clientWidth || Infinity) - card.offsetWidth - 4;
		card.style.left = `${Math.max(0, px + 14 <= room ? px + 14 : px - 14 - card.offsetWidth)}px`;
		card.style.top = `${py + 14}px`;
	}

	// it: the item under the pointer (null: none) at (px, py) in the wrap
	function show(it, lane, px, py) {
		clearTimeout(timer);
		shown = it;
		if (!it) { card.hidden = true; return; }
		render(it, lane, px, py);
		if (it.type !== 'event' || self.has(it.row)) return;
		timer = setTimeout(async () => {
			try {
				const d = await api(`${TL}?links=${it.row}`);
				self.set(it.row, d.self_ns ?? null);
			} catch { return; }
			if (shown === it) render(it, lane, px, py);
		}, 60);
	}
	return { card, show, hide: () => show(null) };
}
