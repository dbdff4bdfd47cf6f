// nsys: the Nsight Systems page of the viewer, over /api/file/ID/nsys/VIEW
// (the JSON of `gpuprof nsys FILE VIEW --format json`): the export's info
// and its summary tables (kernels, memory operations, CUDA API, NVTX ranges,
// GPUs and streams), each sortable, searchable, CSV, and the iteration
// analysis (nsys_iter.js; the whole page of an analysis.json). State in the
// hash: table=NAME with its sort, dir, q.

import { dataTable } from './table.js';
import { renderNsysIter } from './nsys_iter.js';
import { el } from './dom.js';

// The export's tables the views read: [the info's key (null when the
// export lacks the table), the table's name].
const KERNEL = ['kernels', 'CUPTI_ACTIVITY_KIND_KERNEL'], MEMCPY = ['memcpy', 'CUPTI_ACTIVITY_KIND_MEMCPY'],
	MEMSET = ['memset', 'CUPTI_ACTIVITY_KIND_MEMSET'], RUNTIME = ['cuda_api_calls', 'CUPTI_ACTIVITY_KIND_RUNTIME'],
	NVTX = ['nvtx_events', 'NVTX_EVENTS'];
// every CUDA table: an export without any has no GPU work or CUDA call
export const CUDA_TABLES = [KERNEL, MEMCPY, MEMSET, RUNTIME];

// [view, its rows' key, title, the tables it reads]
const TABLES = [
	['kernels', 'kernels', 'GPU kernels', [KERNEL]],
	['memcpy', 'memory_operations', 'GPU memory operations', [MEMCPY, MEMSET]],
	['api', 'cuda_api', 'CUDA API calls', [RUNTIME]],
	['nvtx', 'nvtx_ranges', 'NVTX ranges (host time; GPU work launched inside)', [NVTX]],
	['gpus', 'gpus', 'GPU work per GPU and per stream', [KERNEL, MEMCPY, MEMSET]],
];

// The note of a table whose every source table the export lacks ('' when
// one is there): each table stands on its own, a missing one says why.
export function missingNote(info, sources) {
	if (sources.some(([k]) => info[k] !== null && info[k] !== undefined)) return '';
	const names = sources.map(([, t]) => t);
	return `The export has no ${names.join(' or ')} table${names.length > 1 ? 's' : ''}: Nsight Systems captured none of this (profile with the matching trace option, e.g. nsys profile --trace=cuda,nvtx).`;
}

// kind: the file's kind; an analysis.json (nsys-analysis) has only the
// iteration analysis (nsys_iter.js), an export has it as a section too
export async function renderNsys(api, id, s, writeHash, section, kind) {
	if (kind === 'nsys-analysis') return renderNsysIter(api, id, s, writeHash, section, false);
	const [info, iter, ...tables] = await Promise.all([api(`/api/file/${id}/nsys/info`),
		renderNsysIter(api, id, s, writeHash, section, true),
		...TABLES.map(([v]) => api(`/api/file/${id}/nsys/${v}`))]);
	const kv = el('table', { className: 'kv' }, ...Object.entries(info.export).map(([k, v]) =>
		el('tr', {}, el('th', { textContent: k.replace(/_/g, ' ') }), el('td', { textContent: v === null ? '-' : String(v) }))));
	kv.dataset.testid = 'nsys-info';
	let first = null;
	const kids = [section('Nsight Systems export', kv), ...iter.kids];
	TABLES.forEach(([, key, title, sources], i) => {
		const name = `nsys-${key}`;
		const mine = s.table === name;
		const t = dataTable({ name, rows: tables[i][key],
			state: mine ? { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' } : {},
			onState: (st) => writeHash({ file: s.file, view: s.view, cr: s.cr, iters: s.iters, range: s.range, table: name, sort: st.sort, dir: st.dir, q: st.q }) });
		if (!first || mine) first = t;
		const note = tables[i][key].length ? '' : missingNote(info.export, sources);
		kids.push(section(title, ...(note ? [el('p', { className: 'empty', dataset: { testid: `nsys-missing-${key}` }, textContent: note })] : []), t));
	});
	const iterTable = ['nsys-iterations', 'nsys-host-ranges', 'nsys-gpu-ranges'].includes(s.table);
	return { kids, search: iterTable && iter.search ? iter.search : first };
}
