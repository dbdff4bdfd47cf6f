// details: the detail panels of the Operators and Kernels pages. A click
// (or Enter) on a row opens, under the table, what the server knows about
// that operator or kernel; the page only picks rows, by name, out of the
// API's own tables (the numbers are the CLI's):
//   operator: its kernels (`kernels?group_by=kernel+op`, rows whose op is
//             the operator), its input shapes (`ops?group_by=op+shape`,
//             rows of its name) and call stacks (`ops?stack=1`, same);
//   kernel:   the operators that launched it, with the launch
//             configuration (`kernels?group_by=kernel+op`, rows of its name).
// The open panel's name is the hash's `sel`, so a reload reopens it.

import { dataTable } from './table.js';
import { el } from './dom.js';

// drop: the column every row shares (the panel's own name), left out
function part(title, name, all, drop) {
	const rows = all.map(({ [drop]: _, ...rest }) => rest);
	return el('section', {}, el('h3', { textContent: `${title} (${rows.length})` }),
		rows.length ? dataTable({ name, rows, search: rows.length > 10 }) : el('p', { className: 'empty', textContent: 'None.' }));
}

// (Each table is the API's rows of that operator or kernel, less the
// column holding its name.)
// The panel's frame: a title, a close button, a body filled by fill().
function panel(kind, name, onClose, fill) {
	const close = el('button', { textContent: '×', title: 'Close (Esc)', dataset: { testid: 'detail-close' } });
	close.addEventListener('click', onClose);
	const body = el('div', { className: 'detail-body' }, el('p', { className: 'empty', textContent: 'Loading…' }));
	const box = el('aside', { className: 'detail-panel', dataset: { testid: 'detail-panel', kind, name } },
		el('div', { className: 'detail-head' }, el('h2', { textContent: `${kind === 'op' ? 'Operator' : 'Kernel'}: ${name}` }), close),
		body);
	box.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') onClose(); });
	fill().then((kids) => {
		body.replaceChildren(...kids);
		box.dataset.ready = '1';
	}, (e) => body.replaceChildren(el('p', { className: 'empty', textContent: `Could not load the details: ${e.message}` })));
	return box;
}

// api(path) -> JSON; id: the file; name: the operator's name.
export function opDetail(api, id, name, onClose) {
	return panel('op', name, onClose, async () => {
		const [k, sh, st] = await Promise.all([
			api(`/api/file/${id}/kernels?group_by=kernel%2Bop`),
			api(`/api/file/${id}/ops?group_by=op%2Bshape`),
			api(`/api/file/${id}/ops?stack=1`),
		]);
		return [
			part('Kernels it launched', 'op-kernels', k.kernels.filter((r) => r.op === name), 'op'),
			part('Input shapes', 'op-shapes', sh.operators.filter((r) => r.name === name), 'name'),
			part('Call stacks', 'op-stacks', st.operators.filter((r) => r.name === name), 'name'),
		];
	});
}

// name: the kernel's name.
export function kernelDetail(api, id, name, onClose) {
	return panel('kernel', name, onClose, async () => {
		const k = await api(`/api/file/${id}/kernels?group_by=kernel%2Bop`);
		return [part('Launched by', 'kernel-ops', k.kernels.filter((r) => r.name === name), 'name')];
	});
}

// Wires a table page: table is the dataTable (its onOpen calls open), host
// the element the panel goes into. s: the hash at render time.
export function detailHost(make, s, readHash, writeHash) {
	const host = el('div', { className: 'detail-host' });
	const close = () => {
		host.replaceChildren();
		const { sel, ...rest } = readHash();
		writeHash(rest);
	};
	const open = (name, focus) => {
		if (name === undefined || name === null) return;
		host.replaceChildren(make(name, close));
		writeHash({ ...readHash(), sel: name });
		if (focus) host.scrollIntoView({ block: 'nearest' });
	};
	if (s.sel) open(s.sel, false);
	return { host, open };
}
