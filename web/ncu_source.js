// ncu_source: the Source tab of the Nsight Compute page, for a kernel
// profiled with the SourceCounters section: one row per SASS instruction
// address with its per-instruction counters (the instances of
// inst_executed and its kin, whose correlation value is the address), the
// hottest first (most warp instructions executed), in the sortable table
// of table.js. From GET /api/file/ID/ncu/body?id=N&metric=SOURCE_METRICS
// (`ncu body --metric RE`: each matching metric's instances, x = the
// address). The report stores no SASS text, only the cubin: where the
// server can run NVIDIA's nvdisasm, GET /api/file/ID/ncu/source?id=N
// (`ncu source`) gives every instruction of the kernel with its text as
// ncu prints it, and the table gains a Source column; elsewhere (no
// nvdisasm, the static site, which starts no programs) the rows stay by
// address and the note says why. Where the report carries its CUDA source
// and the cubin its line table, each instruction gets its CUDA line and a
// second table lists the lines (the answer's table cuda).

import { dataTable } from './table.js';
import { el } from './dom.js';

// The per-address counters, in column order: metric -> column key.
export const SOURCE_COUNTERS = [
	['inst_executed', 'inst_executed'],
	['thread_inst_executed', 'thread_inst_executed'],
	['thread_inst_executed_true', 'thread_inst_executed_pred_on'],
];
export const SOURCE_METRICS = `^(${SOURCE_COUNTERS.map(([m]) => m).join('|')})$`;

const hottest = (a, b) => (b.inst_executed ?? -1) - (a.inst_executed ?? -1) || a.pc - b.pc;

// Rows by address from the body rows: [{address (hex text), inst_executed,
// thread_inst_executed, thread_inst_executed_pred_on}], most instructions
// executed first, ties by address.
export function sourceRows(body) {
	const key = new Map(SOURCE_COUNTERS);
	const byPc = new Map();
	for (const r of body) {
		if (r.instance === null || !key.has(r.metric) || typeof r.x !== 'number') continue;
		if (!byPc.has(r.x)) byPc.set(r.x, Object.fromEntries([['pc', r.x], ...SOURCE_COUNTERS.map(([, k]) => [k, null])]));
		byPc.get(r.x)[key.get(r.metric)] = r.value;
	}
	return [...byPc.values()].sort(hottest).map(({ pc, ...rest }) => ({ address: `0x${pc.toString(16)}`, ...rest }));
}

// The last part of a source file's path (ncu writes them as the compiler
// saw them: C:/Users/.../probe_kernels.cu).
const baseName = (f) => f.slice(f.lastIndexOf('/') + 1);

// Rows with the SASS text from the `ncu source` answer: [{address, source,
// cuda_line ("file.cu:N", where the cubin's line table says; only when
// some row has one), counters}], every instruction, the hottest first,
// ties by address; [] when the answer has no text (no nvdisasm there).
export function sassRows(answer) {
	const rows = answer?.source ?? [];
	if (!rows.some((r) => r.source !== null)) return [];
	const lines = rows.some((r) => r.line !== null && r.line !== undefined);
	return rows.map((r) => ({ pc: Number.parseInt(r.address, 16), address: r.address, source: r.source ?? '',
		...(lines ? { cuda_line: r.line === null ? '' : `${baseName(r.file)}:${r.line}` } : {}),
		...Object.fromEntries(SOURCE_COUNTERS.map(([m, k]) => [k, r[m]])) }))
		.sort(hottest).map(({ pc, ...rest }) => rest);
}

// The CUDA source lines of the answer (its table cuda, in ncu's file and
// line order): [{file, line, source, instructions, counters}].
export function cudaRows(answer) {
	return (answer?.cuda ?? []).map((r) => ({ file: baseName(r.file), line: r.line, source: r.source ?? '', instructions: r.instructions,
		...Object.fromEntries(SOURCE_COUNTERS.map(([m, k]) => [k, r[m]])) }));
}

const TITLES = { address: 'Address', source: 'Source', cuda_line: 'CUDA Line', inst_executed: 'Warp Inst. Executed', thread_inst_executed: 'Thread Inst. Executed', thread_inst_executed_pred_on: 'Predicated-On Thread Inst.' };

// The CUDA lines' section: the table, or why there is none.
function cudaSection(sass) {
	const rows = cudaRows(sass);
	const k = sass?.kernels?.[0];
	if (!rows.length) return k?.cuda_note ? el('p', { className: 'kmeta', dataset: { testid: 'ncu-cuda-note' }, textContent: `No CUDA source lines: ${k.cuda_note}.` }) : '';
	return el('div', { className: 'ncu-cuda' },
		el('h3', { textContent: 'CUDA source lines' }),
		el('p', { className: 'kmeta', textContent: `${rows.length} lines of the report's source with SASS (a line inlined elsewhere also counts the instructions of its call sites, as ncu lists them); the counters are sums over their instructions.` }),
		dataTable({ name: 'ncu-cuda', rows, search: false,
			titles: { ...TITLES, file: 'File', line: 'Line', instructions: 'Instructions' } }));
}

// The tab's content; body: the body answer's rows for SOURCE_METRICS;
// sass: the `ncu source` answer, or null.
export function sourceTab(body, s, onState, sass = null) {
	const withText = sassRows(sass);
	const rows = withText.length ? withText : sourceRows(body);
	if (!rows.length) return el('p', { className: 'empty', dataset: { testid: 'ncu-source-empty' }, textContent: 'This kernel has no per-instruction source counters (profile with --section SourceCounters).' });
	const k = sass?.kernels?.[0];
	const note = withText.length
		? `${rows.length} SASS instructions (disassembled by ${k?.disassembler ?? 'nvdisasm'}), most executed first.`
		: `${rows.length} SASS instructions, most executed first. The report stores no SASS text, only the cubin: rows are by address${k?.note ? ` (${k.note})` : ' (SASS text needs nvdisasm where the server runs)'}.`;
	return el('div', { className: 'ncu-source', dataset: { testid: 'ncu-source' } },
		el('p', { className: 'kmeta', dataset: { testid: 'ncu-source-note' }, textContent: note }),
		dataTable({ name: 'ncu-source', rows, state: { sort: s.ssort || '', dir: s.sdir || 'desc', q: s.sq || '' }, onState, titles: TITLES }),
		withText.length ? cudaSection(sass) : '');
}
