// table: a sortable, searchable table of API rows with CSV download.
// Columns come from the rows' keys (the API's column declaration); numbers
// are formatted by their key's unit (fmt.js) and sorted by raw value.

import { fmt, kind, title } from './fmt.js';

const MAX_ROWS = 2000; // rendered at once; search narrows the rest

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

function compare(a, b) {
	if (a === b) return 0;
	if (a === null || a === undefined) return 1;
	if (b === null || b === undefined) return -1;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	return String(a).localeCompare(String(b));
}

// opts: { name, rows, state: {sort, dir, q}, onState(newState), search, tools: [elements] }
// Returns an element; the table re-renders itself on sort/search.
export function dataTable(opts) {
	const { name, rows } = opts;
	const state = { sort: '', dir: 'desc', q: '', ...opts.state };
	const columns = rows.length ? Object.keys(rows[0]) : [];
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
	const csv = document.createElement('button');
	csv.textContent = 'CSV';
	csv.title = 'Download this table as CSV';
	csv.dataset.testid = `csv-${name}`;
	tools.append(count, csv);
	const wrap = document.createElement('div');
	wrap.className = 'table-wrap';
	const table = document.createElement('table');
	table.className = 'data';
	table.dataset.testid = `table-${name}`;
	wrap.append(table);
	box.append(tools, wrap);

	const visible = () => {
		const q = state.q.trim().toLowerCase();
		let out = q ? rows.filter((r) => columns.some((c) => typeof r[c] === 'string' && r[c].toLowerCase().includes(q))) : rows.slice();
		if (state.sort && columns.includes(state.sort)) {
			const d = state.dir === 'asc' ? 1 : -1;
			out = out.map((r, i) => [r, i]).sort((x, y) => d * compare(x[0][state.sort], y[0][state.sort]) || x[1] - y[1]).map((x) => x[0]);
		}
		return out;
	};
	const render = () => {
		const shown = visible();
		table.replaceChildren();
		const head = table.createTHead().insertRow();
		for (const c of columns) {
			const th = document.createElement('th');
			th.textContent = title(c);
			th.title = c;
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
		const body = table.createTBody();
		for (const r of shown.slice(0, MAX_ROWS)) {
			const tr = body.insertRow();
			for (const c of columns) {
				const td = tr.insertCell();
				const v = r[c];
				td.textContent = fmt(c, v);
				if (typeof v === 'number') td.className = 'num';
				else if (c === 'name' || c === 'op' || c === 'text') { td.className = 'name'; td.title = v ?? ''; }
			}
		}
		count.textContent = shown.length === rows.length ? `${rows.length} rows` : `${shown.length} of ${rows.length} rows`;
		if (shown.length > MAX_ROWS) count.textContent += ` (first ${MAX_ROWS} shown)`;
	};
	search?.addEventListener('input', () => {
		state.q = search.value;
		opts.onState?.({ ...state });
		render();
	});
	csv.addEventListener('click', () => downloadCsv(`${name}.csv`, columns, visible()));
	if (!rows.length) {
		box.append(Object.assign(document.createElement('p'), { className: 'empty', textContent: 'No rows.' }));
	}
	render();
	box.focusSearch = () => search?.focus();
	return box;
}
