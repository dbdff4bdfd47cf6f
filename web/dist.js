// dist: the Distributed page, torch-tb-profiler's distributed view over the
// loaded traces (one per worker, i.e. rank), from /api/dist (the JSON of
// `gpuprof dist --format json FILE...`). A worker picker (the loaded traces,
// in file-id order), a tb_compat toggle, two charts of each worker's
// average step (computation / overlap / communication / other, and data
// transfer / synchronizing) and the view's tables (sortable, searchable,
// CSV). The page only draws what the server computed.
// The header's step/range selection (stepsel.js: step=, range=) goes with
// the request: each worker's trace is cut to its own window (`gpuprof dist
// --step N`), and the page says so ("Step 3 of every worker").
// Rank summaries (`gpuprof rank-summary`, e.g. `gpuprof serve DIR` of a
// directory of them) are workers too; when any is loaded the workers are
// the summaries and the loaded traces are their ranks' traces (fleet.js
// links to them), and the page asks for the fleet tables (`dist --fleet`:
// a ranks × steps heat map, stragglers, skew, after the overview:
// fleet.js); over traces alone it asks what it always asked.
// Hash state: workers=ID,ID (absent: every trace), tb=1, names=A,B (the
// worker names, one per ticked trace: --names), cw=WORKER (the
// collective-ops table's worker), heat=wait, table=NAME with its sort,
// dir, q.

import { fmtDur } from './fmt.js';
import { dataTable } from './table.js';
import { el, svgEl } from './dom.js';
import { keepSel, selLabel } from './stepsel.js';
import { fleetSections } from './fleet.js';

// the hash now: handlers merge into it, not into the state they were drawn
// with (another control may have changed it since)
const now = () => Object.fromEntries(new URLSearchParams(location.hash.slice(1)));

// [key, legend, colour] of the two charts, in the CLI's column order
const OVERLAP_PARTS = [
	['computation_ns', 'Computation only', '#4e79a7'],
	['overlap_ns', 'Overlapping', '#59a14f'],
	['communication_ns', 'Communication only', '#f28e2b'],
	['other_ns', 'Other', '#bab0ac'],
];
const WAIT_PARTS = [
	['data_transfer_ns', 'Data transfer', '#4e79a7'],
	['synchronizing_ns', 'Synchronizing', '#e15759'],
];

export const BAR_WIDTH = 800; // the longest worker's bar, in viewBox units

// One horizontal stacked bar per row ({worker, ...parts}), all on one scale:
// the longest total is BAR_WIDTH, so widths are proportional to the values.
export function workerBars(rows, parts, testid, label) {
	const rowH = 26, valueW = 110;
	const labelW = Math.min(320, 16 + 7.5 * Math.max(4, ...rows.map((r) => r.worker.length)));
	const total = (r) => parts.reduce((s, [k]) => s + Math.max(0, r[k] ?? 0), 0);
	const max = Math.max(1, ...rows.map(total));
	const svg = svgEl('svg', { viewBox: `0 0 ${labelW + BAR_WIDTH + valueW} ${rows.length * rowH}`, width: '100%', role: 'img', 'aria-label': label });
	svg.dataset.testid = testid;
	rows.forEach((r, i) => {
		const g = svgEl('g', {});
		g.dataset.worker = r.worker;
		const name = svgEl('text', { x: labelW - 8, y: i * rowH + rowH * 0.68, 'text-anchor': 'end', fill: 'currentColor', 'font-size': 12 });
		name.textContent = r.worker;
		g.append(name);
		let x = labelW;
		for (const [k, legend, colour] of parts) {
			const v = Math.max(0, r[k] ?? 0);
			const w = (BAR_WIDTH * v) / max;
			const rect = svgEl('rect', { x, y: i * rowH + 3, width: w, height: rowH - 6, fill: colour });
			rect.dataset.part = k;
			rect.dataset.value = String(r[k] ?? 0);
			const t = svgEl('title', {});
			t.textContent = `${r.worker} ${legend}: ${fmtDur(r[k] ?? 0)}`;
			rect.append(t);
			g.append(rect);
			x += w;
		}
		const sum = svgEl('text', { x: x + 6, y: i * rowH + rowH * 0.68, fill: 'currentColor', 'font-size': 12 });
		sum.textContent = fmtDur(total(r));
		g.append(sum);
		svg.append(g);
	});
	const legend = el('div', { className: 'legend' }, ...parts.map(([, name, colour]) => {
		const sw = el('i');
		sw.style.background = colour;
		return el('span', {}, sw, name);
	}));
	return el('div', { className: 'dist-chart' }, svg, legend);
}

function message(testid, ...kids) {
	const p = el('p', { className: 'dist-message' }, ...kids);
	p.dataset.testid = testid;
	return p;
}

// The ids of the ticked traces, in file-id order.
function selectedIds(traces, s) {
	if (s.workers === undefined) return traces.map((f) => f.id);
	const want = new Set(String(s.workers).split(',').filter(Boolean).map(Number));
	return traces.filter((f) => want.has(f.id)).map((f) => f.id);
}

function controls(traces, ids, s, writeHash) {
	const picker = el('fieldset', { className: 'dist-workers' }, el('legend', { textContent: 'Workers' }));
	for (const f of traces) {
		const box = el('input', { type: 'checkbox', checked: ids.includes(f.id) });
		box.dataset.testid = `worker-${f.id}`;
		box.addEventListener('change', () => {
			const next = traces.filter((x) => (x.id === f.id ? box.checked : ids.includes(x.id))).map((x) => x.id);
			const all = next.length === traces.length;
			writeHash({ ...now(), workers: all ? undefined : next.join(',') || ',' }, false);
		});
		picker.append(el('label', { title: `file ${f.id}` }, box, ` ${f.name}`));
	}
	const tb = el('input', { type: 'checkbox', checked: s.tb === '1' });
	tb.dataset.testid = 'tb-compat';
	tb.addEventListener('change', () => writeHash({ ...now(), tb: tb.checked ? '1' : undefined }, false));
	const tbLabel = el('label', { title: 'Reproduce torch-tb-profiler exactly (gpuprof dist --tb-compat)' }, tb, ' tb_compat');
	const names = el('input', { type: 'text', value: s.names || '', placeholder: 'A,B,… (default: from the file names)',
		title: 'Worker names, comma-separated, one per ticked trace in order (gpuprof dist --names)' });
	names.dataset.testid = 'worker-names';
	names.addEventListener('change', () => writeHash({ ...now(), names: names.value || undefined }, false));
	const namesLabel = el('label', { className: 'dist-names' }, 'Worker names ', names);
	return el('div', { className: 'tools dist-tools' }, picker, tbLabel, namesLabel);
}

const HOW = () => [
	'Start the server with one trace per worker, e.g. ',
	el('code', { textContent: 'gpuprof serve rank0.json rank1.json' }),
	', or open the other workers’ traces with “Open trace…” (or drop them on the page).',
];

// files: the server's files list; returns {kids, search}.
export async function renderDist(api, files, s, writeHash, section) {
	const torch = files.filter((f) => f.kind === 'torch');
	const sums = files.filter((f) => f.kind === 'rank-summary');
	const traces = sums.length ? sums : torch; // the workers to pick from
	if (traces.length < 2) {
		const why = sums.length ? 'only one rank summary is loaded' : traces.length ? 'only one PyTorch trace is loaded' : 'no PyTorch trace is loaded';
		return {
			kids: [section('Distributed', message('dist-message',
				`The distributed view compares the workers (ranks) of one run, one trace each, and ${why}. `, ...HOW()))],
			search: null,
		};
	}
	const ids = selectedIds(traces, s);
	const tools = controls(traces, ids, s, writeHash);
	if (ids.length < 2) {
		return {
			kids: [tools, section('Distributed', message('dist-message',
				'The distributed view compares workers: tick at least two of the loaded traces above.'))],
			search: null,
		};
	}
	// the selection: each worker's own step(s) or first range of that name
	const label = selLabel(s);
	const selNote = label ? message('dist-selection', `${label} of every worker`,
		s.step ? ' (each worker’s own step numbers, as gpuprof steps finds them in its trace)' : ' (each worker’s first one)') : null;
	const enc = (v) => encodeURIComponent(v).replace(/%2C/g, ','); // lists stay readable
	const q = Object.entries({ files: ids.join(','), ...(s.tb === '1' ? { tb_compat: '1' } : {}), ...keepSel(s), ...(s.names ? { names: s.names } : {}), ...(sums.length ? { fleet: '1' } : {}) })
		.map(([k, v]) => `${k}=${enc(v)}`).join('&');
	let d;
	try {
		d = await api(`/api/dist?${q}`);
	} catch (e) { // a worker without the step, names that do not fit: the server's message
		return { kids: [tools, section('Distributed', ...[selNote, message('dist-error', e.message)].filter(Boolean))], search: null };
	}
	const state = (name) => (s.table === name ? { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' } : {});
	const onState = (name) => (st) => writeHash({ ...now(), table: name, sort: st.sort, dir: st.dir, q: st.q });
	const table = (name, rows, tools2, onOpen) => dataTable({ name, rows, state: state(name), onState: onState(name), tools: tools2, onOpen });
	const workersTable = table('dist-workers', d.workers);
	if (!d.distributed.view) {
		return {
			kids: [tools, ...(selNote ? [selNote] : []),
				section('Distributed', message('dist-message', `No distributed view (${d.distributed.mode} mode): ${d.distributed.reason}. `,
					s.tb === '1' ? 'Untick tb_compat for gpuprof’s own matching of the collective calls.' : '')),
				section('Workers', workersTable)],
			search: workersTable,
		};
	}
	const workers = d.workers.map((w) => w.worker);
	const cw = workers.includes(s.cw) ? s.cw : '';
	const pick = el('select', { title: 'Worker' }, el('option', { value: '', textContent: 'All workers' }),
		...workers.map((w) => el('option', { value: w, textContent: w, selected: w === cw })));
	pick.dataset.testid = 'commops-worker';
	pick.addEventListener('change', () => writeHash({ ...now(), cw: pick.value || undefined }, false));
	const tables = {
		'dist-overlap': table('dist-overlap', d.overlap),
		'dist-waittime': table('dist-waittime', d.waittime),
		'dist-commops': table('dist-commops', cw ? d.commops.filter((r) => r.worker === cw) : d.commops, [el('label', {}, 'Worker ', pick)]),
		'dist-workers': workersTable,
		'dist-gpus': table('dist-gpus', d.gpus),
	};
	const fleet = fleetSections(d, s, sums.length ? torch : [], { table, section, writeHash, now });
	Object.assign(tables, fleet.tables);
	const overlapAvg = d.overlap_average || [], waitAvg = d.waittime_average || [];
	return {
		kids: [tools, ...(selNote ? [selNote] : []),
			section(`Computation/communication overview: the average step of ${workers.length} workers (${d.distributed.mode} mode)`,
				overlapAvg.length ? workerBars(overlapAvg, OVERLAP_PARTS, 'dist-overlap-chart', 'Average step per worker: computation, overlap, communication, other')
					: el('p', { className: 'empty', textContent: 'No steps.' })),
			section('Synchronizing/communication overview: the average step with communication',
				waitAvg.length ? workerBars(waitAvg, WAIT_PARTS, 'dist-wait-chart', 'Average communication per worker: data transfer, synchronizing')
					: el('p', { className: 'empty', textContent: 'No communication.' })),
			...fleet.kids,
			section('Computation/communication per step', tables['dist-overlap']),
			section('Data transfer and synchronizing per step', tables['dist-waittime']),
			section('Collective operations', tables['dist-commops']),
			section('Workers', tables['dist-workers']),
			section('GPUs', tables['dist-gpus'])],
		search: tables[s.table] || tables['dist-commops'],
	};
}
