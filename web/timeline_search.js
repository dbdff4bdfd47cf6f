// timeline_search: the Timeline's search box over
// /api/file/ID/timeline/find (views/view_timeline_find.c): the slices whose
// name contains the text (ASCII letters in any case), in time order. Typing
// asks the server (250 ms after the last key) for the first 10,000 matches,
// their total and the matching names' counts; Enter / n goes to the next
// match, Shift+Enter / N to the previous one (wrapping), a click on a result
// or a name goes to that match. The timeline (timeline.js) centres the
// window on the current match, outlines it and shows its details, and asks
// its windows with find=TEXT so the server marks the visible matches.
// State in the hash: find=TEXT&match=K (K from 1; absent: no current match).

import { fmtDur } from './fmt.js';
import { el } from './dom.js';

export const FIND_LIMIT = 10000; // the API's most matches per answer
const PAGE = 50; // results listed: the 50 around the current match

// api(path), id: the file; s: the hash state (find, match are read and
// written there); save(): writes the hash; onText(): the text changed (the
// timeline asks again with find=); onJump(m, fromHash): go to match m
// (fromHash: restoring a reload, keep the hash's window).
export function timelineSearch({ api, id, s, save, onText, onJump }) {
	const input = el('input', { type: 'search', placeholder: 'Search slices (/)', value: s.find || '', title: 'Slices whose name contains the text (any case). Enter / n: next, Shift+Enter / N: previous', dataset: { testid: 'timeline-search' } });
	const count = el('span', { className: 'count', dataset: { testid: 'timeline-search-count' } });
	const prev = el('button', { textContent: '‹', title: 'Previous match (Shift+Enter, N)', dataset: { testid: 'timeline-search-prev' } });
	const next = el('button', { textContent: '›', title: 'Next match (Enter, n)', dataset: { testid: 'timeline-search-next' } });
	const names = el('div', { className: 'tl-search-names', dataset: { testid: 'timeline-search-names' } });
	const results = el('ol', { className: 'tl-search-results', dataset: { testid: 'timeline-search-results' } });
	const panel = el('div', { className: 'tl-search-panel', hidden: true }, names, results);
	const bar = el('span', { className: 'tl-search' }, input, prev, next, count);
	let res = null, text = s.find || '', k = 0, seq = 0, timer = null; // k: current match, 1-based; 0 none

	function show() {
		const n = res ? res.total : 0, listed = res ? res.matches.length : 0;
		count.dataset.total = String(n);
		count.dataset.k = String(k);
		if (!text) count.textContent = '';
		else if (!res) count.textContent = 'searching…';
		else if (!n) count.textContent = 'no matches';
		else {
			const of = listed < n ? `${n.toLocaleString('en-US')} (the first ${listed.toLocaleString('en-US')} listed)` : n.toLocaleString('en-US');
			count.textContent = k ? `${k.toLocaleString('en-US')} of ${of}` : `${of} match${n === 1 ? '' : 'es'}`;
		}
		prev.disabled = next.disabled = !listed;
		panel.hidden = !res || !n;
		if (!res) return;
		names.replaceChildren(...res.names.map((x) => {
			const b = el('button', { className: 'tl-search-name', dataset: { testid: 'timeline-search-name', name: x.name }, textContent: `${x.name} — ${x.count.toLocaleString('en-US')} match${x.count === 1 ? '' : 'es'}, ${fmtDur(x.total_dur)}` });
			b.addEventListener('click', () => { const i = res.matches.findIndex((m) => m.name === x.name); if (i >= 0) go(i + 1); });
			return b;
		}), ...(res.names_total > res.names.length ? [el('span', { className: 'count', textContent: `and ${res.names_total - res.names.length} more names` })] : []));
		const p0 = k ? Math.floor((k - 1) / PAGE) * PAGE : 0;
		results.start = p0 + 1;
		results.replaceChildren(...res.matches.slice(p0, p0 + PAGE).map((m, j) => {
			const b = el('button', { className: 'tl-search-result', dataset: { testid: 'timeline-search-result', k: String(p0 + j + 1), row: String(m.row) }, textContent: `${m.name} · ${m.kind} · ${fmtDur(m.ts)} · ${fmtDur(m.dur)}` });
			if (p0 + j + 1 === k) b.setAttribute('aria-current', 'true');
			b.addEventListener('click', () => go(p0 + j + 1));
			return el('li', {}, b);
		}));
	}

	function go(i, fromHash = false) {
		if (!res || !res.matches.length) return;
		const n = res.matches.length;
		k = ((i - 1) % n + n) % n + 1;
		s.match = String(k);
		show();
		onJump(res.matches[k - 1], fromHash);
		results.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest' });
	}

	async function run(restore) {
		const my = ++seq;
		res = null;
		if (!restore) k = 0;
		s.find = text;
		if (!restore) s.match = '';
		show();
		save();
		onText();
		if (!text) return;
		let d;
		try {
			d = await api(`/api/file/${id}/timeline/find?find=${encodeURIComponent(text)}&limit=${FIND_LIMIT}`);
		} catch (e) {
			if (my === seq) count.textContent = `search failed: ${e.message}`;
			return;
		}
		if (my !== seq) return;
		res = d;
		if (restore && k >= 1 && k <= d.matches.length) go(k, true);
		else { k = 0; show(); }
	}

	input.addEventListener('input', () => {
		clearTimeout(timer);
		timer = setTimeout(() => { if (input.value !== text) { text = input.value; run(false); } }, 250);
	});
	const step = (d) => { if (res) go(k ? k + d : d > 0 ? 1 : res.matches.length); };
	input.addEventListener('keydown', (ev) => {
		if (ev.key === 'Enter') {
			ev.preventDefault();
			clearTimeout(timer);
			if (input.value !== text) { text = input.value; run(false).then(() => step(ev.shiftKey ? -1 : 1)); return; }
			step(ev.shiftKey ? -1 : 1);
		} else if (ev.key === 'Escape') {
			input.blur();
		}
	});
	prev.addEventListener('click', () => step(-1));
	next.addEventListener('click', () => step(1));
	if (text) { k = Math.max(0, Math.floor(+s.match) || 0); run(true); } else show();

	return {
		bar, panel,
		text: () => text,
		current: () => (res && k ? res.matches[k - 1] : null),
		// '/' focuses the box, n / N the next / previous match
		key(key) {
			if (key === '/') { input.focus(); input.select(); } else if (key === 'n') step(1);
			else if (key === 'N') step(-1);
			else return false;
			return true;
		},
	};
}
