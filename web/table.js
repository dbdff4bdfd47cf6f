// table: a sortable, searchable table of API rows with CSV download.
// Columns come from the rows' keys (the API's column declaration); numbers
// are formatted by their key's unit (fmt.js) and sorted by raw value.
//
// Every row is reachable: up to FULL_ROWS matching rows are all in the DOM;
// past that the table is virtual: the box scrolls (fixed height, the header
// sticks), every row is ROW_H pixels high and only the rows in view plus
// MARGIN above and below are in the tbody, between two spacer rows
// (tr.vpad) that stand for the others. Sorting, search and CSV work on all
// rows. A row can be selected (click, or the up/down keys in the focused
// box); opts.onOpen(row) is called on a click and on Enter.

import { fmt, kind, title, tooltip } from './fmt.js';

export const FULL_ROWS = 500; // at most this many matching rows: all rendered
export const ROW_H = 24; // px, a virtual table's row height (style.css: .table-wrap.virtual)
const MARGIN = 20; // rows rendered above and below the view

export function csvText(columns, rows) {
	const cell = (v) => {
		if (v === null || v === undefined) return '';
		const s = String(v);
		return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
	};
	return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

export function downloadCsv(filename, columns, rows) {
	const url = URL.createObjectURL(new Blob([csvText(columns, rows)], { type: 'text/csv' }));
	const a = document.createElement('a');
	a.href = url;
	a.download = filename;
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const collator = new Intl.Collator();

// Numbers printed as text (Nsight Compute's values: "4,968", "102.40",
// "1.5e+09") and the placeholders that stand for no value.
const NUM_TEXT = /^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][-+]?\d+)?$/;
const NO_VALUE = new Set(['n/a', '-', '']);

// v as a sort key: a number, null (no value: sorted last), or undefined
// when v is text that is not a number.
export function numKey(v) {
	if (v === null || v === undefined) return null;
	if (typeof v === 'number') return v;
	const t = String(v);
	if (NO_VALUE.has(t)) return null;
	return NUM_TEXT.test(t) && /\d/.test(t) ? Number(t.replace(/,/g, '')) : undefined;
}

// The order of rows (indices into them) by column c, dir 1 or -1; ties in
// the given order. Values that are numbers (or numbers as text) compare by
// value, before the other text (in the locale's order, as
// String.localeCompare); no value (null, n/a, -) comes last.
function sortedIndex(rows, idx, c, d) {
	const n = idx.length;
	// per row: a class (0 number, 1 text, 2 no value) and its key
	const cls = new Uint8Array(n), key = new Float64Array(n), text = new Array(n);
	let texts = false;
	for (let i = 0; i < n; i++) {
		const v = rows[idx[i]][c], k = numKey(v);
		if (k === null) cls[i] = 2;
		else if (k === undefined) { cls[i] = 1; text[i] = String(v); texts = true; }
		else key[i] = k;
	}
	const pos = new Int32Array(n);
	for (let i = 0; i < n; i++) pos[i] = i;
	if (!texts) // typed arrays only: the comparison reads no object
		pos.sort((a, b) => (cls[a] - cls[b]) || d * (key[a] - key[b]) || a - b);
	else
		pos.sort((a, b) => {
			if (cls[a] !== cls[b]) return cls[a] === 2 || cls[b] === 2 ? cls[a] - cls[b] : d * (cls[a] - cls[b]);
			if (cls[a] === 0) return d * (key[a] - key[b]) || a - b;
			if (cls[a] === 1) return d * collator.compare(text[a], text[b]) || a - b;
			return a - b;
		});
	const out = new Array(n);
	for (let i = 0; i < n; i++) out[i] = idx[pos[i]];
	return out;
}

// opts: { name, rows, state: {sort, dir, q}, onState(newState), search, tools: [elements],
//         onOpen(row), selected(row) -> bool (the row to select first),
//         cells: {key: (value, row) -> element or null} (a column's own
//         rendering of a cell; null: the formatted value),
//         titles: {key: title} (the titles of a table the page joins itself,
//         where a key's title elsewhere does not fit; else fmt's title()) }
// Returns an element; the table re-renders itself on sort/search. The
// element has focusSearch(), select(pred) (selects and scrolls to the first
// shown row with pred(row); false when none) and selectedRow().
export function dataTable(opts) {
	const { name, rows } = opts;
	const state = { sort: '', dir: 'desc', q: '', ...opts.state };
	const columns = rows.length ? Object.keys(rows[0]) : [];
	const textCols = columns.filter((c) => rows.some((r) => typeof r[c] === 'string'));
	const box = document.createElement('section');
	box.className = 'table-box';
	box.dataset.table = name;
	const tools = document.createElement('div');
	tools.className = 'tools';
	let search = null;
	if (opts.search !== false) {
		search = document.createElement('input');
		search.type = 'search';
		search.placeholder = 'Search…';
		search.value = state.q;
		search.dataset.testid = `search-${name}`;
		search.setAttribute('aria-label', `Search ${name}`);
		tools.append(search);
	}
	for (const t of opts.tools || []) tools.append(t);
	const count = document.createElement('span');
	count.className = 'count';
	count.dataset.testid = `count-${name}`;
	const csv = document.createElement('button');
	csv.textContent = 'CSV';
	csv.title = 'Download this table as CSV';
	csv.dataset.testid = `csv-${name}`;
	tools.append(count, csv);
	const wrap = document.createElement('div');
	wrap.className = 'table-wrap';
	wrap.tabIndex = 0;
	wrap.setAttribute('aria-label', `${name} table; up/down select a row, Enter opens it`);
	const table = document.createElement('table');
	table.className = 'data';
	table.dataset.testid = `table-${name}`;
	wrap.append(table);
	box.append(tools, wrap);

	const all = rows.map((_, i) => i);
	let shown = all; // indices into rows, in display order
	let sel = -1; // the selected row's index into rows
	let first = 0, last = 0; // the shown positions [first, last) in the tbody
	let virtual = false;
	let body = null;

	const visible = () => {
		const q = state.q.trim().toLowerCase();
		let out = all;
		if (q) out = all.filter((i) => textCols.some((c) => typeof rows[i][c] === 'string' && rows[i][c].toLowerCase().includes(q)));
		if (state.sort && columns.includes(state.sort)) out = sortedIndex(rows, out, state.sort, state.dir === 'asc' ? 1 : -1);
		return out;
	};
	const rowEl = (i, pos) => {
		const r = rows[i];
		const tr = document.createElement('tr');
		tr.dataset.pos = pos;
		if (i === sel) { tr.className = 'selected'; tr.setAttribute('aria-selected', 'true'); }
		for (const c of columns) {
			const td = tr.insertCell();
			const v = r[c];
			const own = opts.cells?.[c]?.(v, r);
			if (own) td.append(own);
			else td.textContent = fmt(c, v);
			if (typeof v === 'number') td.className = 'num';
			else if (c === 'name' || c === 'op' || c === 'text') { td.className = 'name'; td.title = v ?? ''; }
		}
		return tr;
	};
	const pad = (h) => {
		const tr = document.createElement('tr');
		tr.className = 'vpad';
		tr.setAttribute('aria-hidden', 'true');
		const td = tr.insertCell();
		td.colSpan = columns.length || 1;
		td.style.height = `${h}px`;
		return tr;
	};
	// the tbody's rows for the current scroll position
	const paint = () => {
		if (!virtual) {
			first = 0;
			last = shown.length;
			body.replaceChildren(...shown.map(rowEl));
			return;
		}
		const headH = table.tHead?.offsetHeight || ROW_H;
		const top = Math.max(0, wrap.scrollTop - headH);
		const viewH = wrap.clientHeight || 600;
		first = Math.max(0, Math.floor(top / ROW_H) - MARGIN);
		last = Math.min(shown.length, Math.ceil((top + viewH) / ROW_H) + MARGIN);
		const kids = first ? [pad(first * ROW_H)] : [];
		for (let p = first; p < last; p++) kids.push(rowEl(shown[p], p));
		if (last < shown.length) kids.push(pad((shown.length - last) * ROW_H));
		body.replaceChildren(...kids);
	};
	const render = () => {
		shown = visible();
		virtual = shown.length > FULL_ROWS;
		wrap.classList.toggle('virtual', virtual);
		table.dataset.rows = shown.length;
		table.replaceChildren();
		const head = table.createTHead().insertRow();
		for (const c of columns) {
			const th = document.createElement('th');
			th.textContent = opts.titles?.[c] ?? title(c);
			th.title = tooltip(c, opts.titles?.[c]);
			th.dataset.key = c;
			if (kind(c) !== 'raw' || typeof rows[0]?.[c] === 'number') th.className = 'num';
			if (state.sort === c) th.setAttribute('aria-sort', state.dir === 'asc' ? 'ascending' : 'descending');
			th.addEventListener('click', () => {
				if (state.sort === c) state.dir = state.dir === 'asc' ? 'desc' : 'asc';
				else { state.sort = c; state.dir = typeof rows[0]?.[c] === 'string' ? 'asc' : 'desc'; }
				opts.onState?.({ ...state });
				render();
			});
			head.append(th);
		}
		body = table.createTBody();
		paint();
		count.textContent = shown.length === rows.length ? `${rows.length} rows` : `${shown.length} of ${rows.length} rows`;
	};
	let frame = 0;
	wrap.addEventListener('scroll', () => {
		if (!virtual || frame) return;
		frame = requestAnimationFrame(() => {
			frame = 0;
			paint();
		});
	});
	// selects position p of the shown rows and brings it into view
	const selectPos = (p) => {
		if (p < 0 || p >= shown.length) return;
		sel = shown[p];
		const headH = table.tHead?.offsetHeight || ROW_H;
		if (virtual) {
			const y = headH + p * ROW_H;
			if (y - headH < wrap.scrollTop) wrap.scrollTop = y - headH;
			else if (y + ROW_H > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = y + ROW_H - wrap.clientHeight;
			paint();
		} else {
			for (const tr of body.rows) {
				const on = Number(tr.dataset.pos) === p;
				tr.classList.toggle('selected', on);
				if (on) { tr.setAttribute('aria-selected', 'true'); tr.scrollIntoView({ block: 'nearest' }); } else tr.removeAttribute('aria-selected');
			}
		}
	};
	table.addEventListener('click', (ev) => {
		const tr = ev.target.closest('tbody tr');
		if (!tr || tr.classList.contains('vpad')) return;
		const p = Number(tr.dataset.pos);
		selectPos(p);
		opts.onOpen?.(rows[shown[p]]);
	});
	wrap.addEventListener('keydown', (ev) => {
		if (ev.target !== wrap || !shown.length) return;
		const p = sel < 0 ? -1 : shown.indexOf(sel);
		if (ev.key === 'ArrowDown') selectPos(Math.min(shown.length - 1, p + 1));
		else if (ev.key === 'ArrowUp') selectPos(Math.max(0, p - 1));
		else if (ev.key === 'Enter' && p >= 0) opts.onOpen?.(rows[sel]);
		else return;
		ev.preventDefault();
		ev.stopPropagation();
	});
	search?.addEventListener('input', () => {
		state.q = search.value;
		opts.onState?.({ ...state });
		render();
	});
	csv.addEventListener('click', () => downloadCsv(`${name}.csv`, columns, visible().map((i) => rows[i])));
	if (!rows.length) {
		box.append(Object.assign(document.createElement('p'), { className: 'empty', textContent: 'No rows.' }));
	}
	render();
	// the first paint of a virtual table had no layout yet: again once attached
	requestAnimationFrame(() => { if (virtual) paint(); });
	box.focusSearch = () => search?.focus();
	box.select = (pred) => {
		const p = shown.findIndex((i) => pred(rows[i]));
		if (p < 0) return false;
		selectPos(p);
		return true;
	};
	box.selectedRow = () => (sel < 0 ? null : rows[sel]);
	if (opts.selected) {
		const i = rows.findIndex(opts.selected);
		if (i >= 0) sel = i;
		requestAnimationFrame(() => { if (sel >= 0) box.select((r) => r === rows[sel]); });
	}
	return box;
}
