// nsys: the Nsight Systems page of the viewer, over /api/file/ID/nsys/VIEW
// (the JSON of `gpuprof nsys FILE VIEW --format json`): the export's info
// and its summary tables (kernels, memory operations, CUDA API, NVTX ranges,
// GPUs and streams), each sortable, searchable, CSV. State in the hash:
// table=NAME with its sort, dir, q.

import { dataTable } from './table.js';

const el = (tag, props = {}, ...kids) => {
	const e = Object.assign(document.createElement(tag), props);
	e.append(...kids);
	return e;
};

const TABLES = [
	['kernels', 'kernels', 'GPU kernels'],
	['memcpy', 'memory_operations', 'GPU memory operations'],
	['api', 'cuda_api', 'CUDA API calls'],
	['nvtx', 'nvtx_ranges', 'NVTX ranges (host time; GPU work launched inside)'],
	['gpus', 'gpus', 'GPU work per GPU and per stream'],
];

export async function renderNsys(api, id, s, writeHash, section) {
	const [info, ...tables] = await Promise.all([api(`/api/file/${id}/nsys/info`),
		...TABLES.map(([v]) => api(`/api/file/${id}/nsys/${v}`))]);
	const kv = el('table', { className: 'kv' }, ...Object.entries(info.export).map(([k, v]) =>
		el('tr', {}, el('th', { textContent: k.replace(/_/g, ' ') }), el('td', { textContent: v === null ? '-' : String(v) }))));
	kv.dataset.testid = 'nsys-info';
	let first = null;
	const kids = [section('Nsight Systems export', kv)];
	TABLES.forEach(([, key, title], i) => {
		const name = `nsys-${key}`;
		const mine = s.table === name;
		const t = dataTable({ name, rows: tables[i][key],
			state: mine ? { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' } : {},
			onState: (st) => writeHash({ file: s.file, view: s.view, table: name, sort: st.sort, dir: st.dir, q: st.q }) });
		if (!first || mine) first = t;
		kids.push(section(title, t));
	});
	return { kids, search: first };
}
