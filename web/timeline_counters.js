// timeline_counters: HTA's counters on the Timeline (the "Counters" button,
// key c; off by default, counters=1 in the hash). The windows are then asked
// with stream_counters=1 and the server (views/view_timeline_counters.c)
// adds "stream_counters": the queue length of each GPU stream (launches
// outstanding) and the memcpy bandwidth of each kind (GB/s), windowed and
// reduced per pixel column like the trace's own counters (at most one point
// per column: a column of several keeps its min, max and last, so the peaks
// stay). Each series comes as a counter lane (a step area, drawn by the
// timeline's counter code) right under the lane of its stream (bandwidth:
// the stream of the kind's first copy). The canvas's data-stream-counters
// lists the lanes shown ("Queue Length stream 7 0-3|...": name, stream or
// kind, the window's min-max).

import { el } from './dom.js';

export function streamCounters({ s, save, onChange, canvas, enabled = true }) {
	let on = enabled && s.counters === '1';
	const bar = el('button', { textContent: 'Counters', title: 'Show HTA\'s counters under their streams: queue length, memcpy bandwidth (c)', dataset: { testid: 'timeline-counters' } });
	const set = (v) => {
		on = enabled && v;
		s.counters = on ? '1' : '';
		bar.setAttribute('aria-pressed', String(on));
		save();
		onChange();
	};
	bar.setAttribute('aria-pressed', String(on));
	bar.addEventListener('click', () => set(!on));
	const series = (c) => (c.stream !== undefined ? `stream ${c.stream}` : c.kind);
	return {
		bar: enabled ? [bar] : [],
		param: () => (on ? '&stream_counters=1' : ''),
		// the counter blocks under lane l (its track's series), for blocks()
		blocks(data, l) {
			const all = on ? data?.stream_counters || [] : [];
			return all.flatMap((c, i) => (c.track !== l.track ? [] : [{
				kind: 'counter', key: `h${i}`,
				c: { ...c, counter: `h${i}`, series: series(c), process: c.name === 'Memcpy BW' ? 'GB/s' : 'launches' },
			}]));
		},
		// the canvas's note of the series of the answer drawn
		mark(data) {
			const all = on ? data?.stream_counters || [] : [];
			canvas.dataset.streamCounters = all.map((c) => `${c.name} ${series(c)} ${c.min}-${c.max}`).join('|');
		},
		key(k) {
			if (k !== 'c' || !enabled) return false;
			set(!on);
			return true;
		},
	};
}
