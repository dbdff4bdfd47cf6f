// app: the gpuprof viewer, one page over the server's JSON API (see
// docs/viewer.md). State lives in the URL hash (file, view, sort, dir, q,
// group), so a link reopens the same table; the server computes every
// number and the page only formats, sorts and filters rows.

import { fmt, fmtDur } from './fmt.js';
import { renderOverview as overviewPage, card } from './overview.js';
import { withShare, shareChart, tcBadge } from './share.js';
import { renderBanner } from './banner.js';
import { dataTable } from './table.js';
import { renderNcu } from './ncu.js';
import { renderTimeline, timelineKey } from './timeline.js';
import { renderSteps } from './steps.js';
import { renderNsys, missingNote, CUDA_TABLES } from './nsys.js';
import { renderDist } from './dist.js';
import { renderDiff, diffAvailable } from './diff.js';
import { renderWaits } from './waits.js';
import { renderModules } from './modules.js';
import { detailHost, opDetail, kernelDetail } from './details.js';
import { renderMemoryPage } from './memory.js';
import { uploadFile } from './upload.js';
import { withSel, keepSel, renderSelector, stepSelected, selectState } from './stepsel.js';
import { el } from './dom.js';

const VIEWS = ['overview', 'ops', 'kernels', 'memory', 'timeline', 'steps', 'dist', 'waits', 'modules']; // keys 1-8: the first eight
const ALL_VIEWS = [...VIEWS, 'ncu', 'nsys', 'diff']; // the pages of Nsight Compute reports and Nsight Systems exports; two files compared
const $ = (id) => document.getElementById(id);

let files = [];
let current = null; // the table box the '/' key searches

function readHash() {
	const p = new URLSearchParams(location.hash.slice(1));
	const s = Object.fromEntries(p.entries());
	if (!ALL_VIEWS.includes(s.view)) s.view = 'overview';
	return s;
}

function writeHash(s, replace = true) {
	const clean = Object.fromEntries(Object.entries(s).filter(([, v]) => v !== '' && v !== undefined && v !== null));
	const h = '#' + new URLSearchParams(clean).toString();
	if (h === location.hash) return;
	if (replace) history.replaceState(null, '', h);
	else location.hash = h;
}

function showError(msg) {
	const e = $('error');
	e.textContent = msg;
	e.hidden = !msg;
}

async function api(path, init) {
	const r = await fetch(withSel(path), init); // with the step/range selection (stepsel.js)
	let body;
	try {
		body = await r.json();
	} catch (e) {
		if (e.name === 'AbortError') throw e; // the caller gave up on it
		throw new Error(`${path}: HTTP ${r.status}`);
	}
	if (!r.ok) throw new Error(body?.error?.message || `HTTP ${r.status}`);
	return body;
}

function showFiles(list) {
	files = list;
	const sel = $('file');
	sel.replaceChildren(...files.map((f) => el('option', { value: String(f.id), textContent: f.name })));
	$('remove').hidden = !files.length;
}

async function loadFiles() {
	showFiles((await api('/api/files')).files);
}

// DELETE /api/file/ID (no step/range selection: it takes no parameter);
// the answer is the remaining files. The page then shows the first one,
// or an empty page when none is left.
async function removeFile() {
	const id = $('file').value;
	if (!id) return;
	showError('');
	try {
		const r = await fetch(`/api/file/${encodeURIComponent(id)}`, { method: 'DELETE' });
		const body = await r.json().catch(() => null);
		if (!r.ok) throw new Error(body?.error?.message || `HTTP ${r.status}`);
		const name = files.find((f) => String(f.id) === id)?.name ?? id;
		showFiles(body.files);
		if (!files.length) {
			$('view').replaceChildren(el('p', { className: 'empty', textContent: `${name} was removed; no file is loaded (open one or drop it here).` }));
			$('stepsel').hidden = true;
			writeHash({ view: readHash().view });
			return;
		}
		writeHash({ file: String(files[0].id), view: readHash().view }, false);
		await render();
	} catch (e) {
		showError(`Could not remove the file: ${e.message}`);
	}
}

function section(title, ...kids) {
	return el('section', {}, el('h2', { textContent: title }), ...kids);
}

function renderOverview(id) {
	return overviewPage(api, id, section);
}

function groupSelect(s, choices) {
	const sel = el('select', { dataset: { testid: 'group-by' }, title: 'Group by' },
		...choices.map(([v, t]) => el('option', { value: v, textContent: t, selected: (s.group || choices[0][0]) === v })));
	sel.addEventListener('change', () => { writeHash({ ...s, group: sel.value }, false); });
	return el('label', {}, 'Group by ', sel);
}

function tableState(s) {
	return { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' };
}

function onTableState(s) {
	return (t) => writeHash({ ...readHash(), sort: t.sort, dir: t.dir, q: t.q });
}

async function renderOps(id, s) {
	// the default grouping asks without parameters: the answer the server
	// computed ahead (srv_warm.c) and caches under that request
	const d = await api(`/api/file/${id}/ops${s.group === 'op+shape' ? '?group_by=op%2Bshape' : ''}`);
	const det = detailHost((name, close) => opDetail(api, id, name, close), s, readHash, writeHash);
	const share = withShare(d.operators, d.tree.sorted_by);
	current = dataTable({ name: 'operators', rows: share.rows, state: tableState(s), onState: onTableState(s),
		tools: [groupSelect(s, [['op', 'Operator'], ['op+shape', 'Operator + input shape']])],
		onOpen: (r) => det.open(r.name, true), selected: s.sel ? (r) => r.name === s.sel : null });
	return [section(`Operators (${d.tree.sorted_by.replace('_', ' ')} first)`, shareChart(share), current), det.host];
}

async function renderKernels(id, s) {
	const d = await api(`/api/file/${id}/kernels${s.group === 'kernel+op' ? '?group_by=kernel%2Bop' : ''}`);
	const det = detailHost((name, close) => kernelDetail(api, id, name, close), s, readHash, writeHash);
	current = dataTable({ name: 'kernels', rows: d.kernels, state: tableState(s), onState: onTableState(s), cells: { tc_used: tcBadge },
		tools: [groupSelect(s, [['kernel', 'Kernel'], ['kernel+op', 'Kernel + operator']])],
		onOpen: (r) => det.open(r.name, true), selected: s.sel ? (r) => r.name === s.sel : null });
	const tc = d.tensor_cores;
	return [
		el('div', { className: 'cards' },
			card('Kernel time', fmtDur(tc.kernel_time_ns), 'card-kernel-time'),
			card('Kernel time using Tensor Cores (of all kernel time)', fmt('tc_used_pct', tc.tc_used_pct), 'card-tc-used',
				'Tensor Core kernels\' time over the time of every kernel, whoever launched it')),
		section('Kernels', current),
		det.host,
	];
}

async function renderMemory(id, s) {
	const r = await renderMemoryPage(api, id, s, { readHash, writeHash, section, tableState, onTableState });
	current = r.search;
	return r.kids;
}

async function renderNcuView(id, s) {
	const r = await renderNcu(api, id, s, writeHash, section);
	current = r.search;
	return r.kids;
}

async function renderStepsView(id, s) {
	const r = await renderSteps(api, id, s, writeHash, section,
		{ selected: (step) => stepSelected(s, step), select: (step) => writeHash(selectState(readHash(), { step }), false) });
	current = r.search;
	return r.kids;
}

async function renderNsysView(id, s) {
	const r = await renderNsys(api, id, s, writeHash, section, files.find((f) => String(f.id) === id)?.kind);
	current = r.search;
	return r.kids;
}

async function renderDistView(id, s) {
	const r = await renderDist(api, files, s, writeHash, section);
	current = r.search;
	return r.kids;
}

async function renderWaitsView(id, s) {
	const r = await renderWaits(api, id, s, writeHash, section);
	current = r.search;
	return r.kids;
}

async function renderModulesView(id, s) {
	const r = await renderModules(api, id, s, writeHash, section, tableState, onTableState);
	current = r.search;
	return r.kids;
}

async function renderDiffView(id, s) {
	const r = await renderDiff(api, files, s, writeHash, section);
	current = r.search;
	return r.kids;
}

async function renderTimelineView(id, s) {
	// an Nsight Systems export's timeline: nsys/timeline, no Perfetto
	const nsys = files.find((f) => String(f.id) === id)?.kind === 'nsys';
	if (!nsys) return renderTimeline(api, id, s, writeHash, {});
	// an export without CUDA tables: say so above what it has (NVTX ranges)
	const [info, kids] = await Promise.all([api(`/api/file/${id}/nsys/info`), renderTimeline(api, id, s, writeHash, { endpoint: 'nsys/timeline', perfetto: false })]);
	const note = missingNote(info.export, CUDA_TABLES);
	return note ? [el('p', { className: 'empty', dataset: { testid: 'timeline-no-cuda' }, textContent: `${note} The timeline shows only the export's NVTX ranges.` }), ...kids] : kids;
}

const RENDER = { overview: renderOverview, ops: renderOps, kernels: renderKernels, memory: renderMemory, timeline: renderTimelineView, steps: renderStepsView, waits: renderWaitsView, modules: renderModulesView, dist: renderDistView, nsys: renderNsysView, ncu: renderNcuView, diff: renderDiffView };

let seq = 0;
async function render() {
	const s = readHash();
	if (files.length && !files.some((f) => String(f.id) === s.file)) {
		s.file = String(files[0].id);
		writeHash(s);
	}
	// an Nsight Compute report and an Nsight Systems export have a page
	// each (the view of the kind's name); a trace has the others
	const kind = files.find((f) => String(f.id) === s.file)?.kind;
	const own = kind === 'ncu' ? 'ncu' : kind === 'nsys' || kind === 'nsys-analysis' ? 'nsys' : null;
	const ownView = (v) => v === 'ncu' || v === 'nsys';
	// an export (not an analysis.json) has the Timeline page too
	const shown = (v) => (own ? v === own || (kind === 'nsys' && v === 'timeline') : !ownView(v));
	// the Diff page is of two files, whatever the current one: its tab
	// shows with two files of one kind it compares, its page always opens
	// (with a hint when there are not two)
	const tab = (v) => (v === 'diff' ? diffAvailable(files) : files.length === 0 || shown(v));
	if (!shown(s.view) && s.view !== 'diff') {
		s.view = own || 'overview';
		writeHash({ file: s.file, view: s.view });
	}
	for (const a of document.querySelectorAll('#tabs a')) {
		a.classList.toggle('active', a.dataset.view === s.view);
		a.hidden = !tab(a.dataset.view);
		a.href = '#' + new URLSearchParams({ ...(s.file ? { file: s.file } : {}), view: a.dataset.view, ...keepSel(s) });
	}
	if (!files.length) return;
	$('file').value = s.file;
	$('file').title = `${files.find((f) => String(f.id) === s.file)?.name ?? ''} ([ and ] switch)`;
	renderBanner($('banner'), s.file, kind === 'torch', api).catch(() => {});
	renderSelector($('stepsel'), s.file, s, (st) => writeHash(st, false), kind === 'torch').catch(() => {});
	const my = ++seq;
	$('busy').hidden = false;
	current = null;
	try {
		const kids = await RENDER[s.view](s.file, s);
		if (my !== seq) return;
		$('view').replaceChildren(...kids);
		$('view').dataset.view = s.view;
	} catch (e) {
		if (my === seq) $('view').replaceChildren(el('p', { className: 'empty', textContent: `Could not show this view: ${e.message}` }));
	} finally {
		if (my === seq) $('busy').hidden = true;
	}
}

async function upload(file) {
	showError('');
	try {
		// XMLHttpRequest for its upload progress (upload.js: the header's bar)
		const d = await uploadFile(file);
		if (!d) return; // cancelled
		$('busy').hidden = false;
		await loadFiles();
		writeHash({ file: String(d.files[0].id), view: readHash().view }, false);
		await render();
	} catch (e) {
		showError(`Could not load ${file.name}: ${e.message}`);
	} finally {
		$('busy').hidden = true;
	}
}

function setTheme(t) {
	document.documentElement.dataset.theme = t;
	try { localStorage.setItem('gpuprof-theme', t); } catch { /* private mode */ }
	document.querySelectorAll('canvas').forEach((c) => c.redraw?.());
}

// Ctrl+F (Cmd+F): the page's own search, where it has one (a table's, the
// timeline's); elsewhere the browser's find.
function findKey(ev) {
	if (ev.key !== 'f' || !(ev.ctrlKey || ev.metaKey) || ev.altKey || ev.shiftKey) return false;
	if (current) current.focusSearch();
	else {
		const box = document.querySelector('#view input[type=search]');
		if (!box) return false;
		box.focus();
	}
	ev.preventDefault();
	return true;
}

function keys(ev) {
	if (findKey(ev)) return;
	if (ev.key === 'Escape' && !$('help').open && !ev.target.matches('input, textarea')) {
		// a detail panel opened by a click keeps no focus: close it from anywhere
		const close = document.querySelector('#view [data-testid=detail-close]');
		if (close) { close.click(); ev.preventDefault(); return; }
	}
	if (ev.target.matches('input, select, textarea') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
	const s = readHash();
	if (s.view === 'timeline' && timelineKey(ev.key)) {
		// + - arrows 0: the timeline's window
	} else if (ev.key >= '1' && ev.key <= '8') {
		writeHash({ file: s.file, view: VIEWS[+ev.key - 1], ...keepSel(s) }, false);
	} else if (ev.key === '?') {
		$('help').open ? $('help').close() : $('help').showModal();
	} else if (ev.key === 't') {
		setTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');
	} else if (ev.key === '/' && current) {
		current.focusSearch();
	} else if ((ev.key === '[' || ev.key === ']') && files.length) {
		const i = files.findIndex((f) => String(f.id) === s.file);
		const j = (i + (ev.key === ']' ? 1 : files.length - 1)) % files.length;
		writeHash(selectState({ ...s, file: String(files[j].id) }, {}), false); // another file's steps
	} else if (ev.key === 'Escape') {
		showError(''); // and the browser closes an open dialog
		return;
	} else {
		return;
	}
	ev.preventDefault();
}

function init() {
	let theme = null;
	try { theme = localStorage.getItem('gpuprof-theme'); } catch { /* private mode */ }
	setTheme(theme || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
	$('theme').addEventListener('click', () => setTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'));
	$('help-button').addEventListener('click', () => $('help').showModal());
	$('file').addEventListener('change', () => writeHash({ file: $('file').value, view: readHash().view }, false));
	$('remove').addEventListener('click', removeFile);
	$('upload').addEventListener('change', () => { const f = $('upload').files[0]; if (f) upload(f); $('upload').value = ''; });
	let depth = 0;
	addEventListener('dragenter', (e) => { e.preventDefault(); depth++; $('drop').hidden = false; });
	addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; $('drop').hidden = true; } });
	addEventListener('dragover', (e) => e.preventDefault());
	addEventListener('drop', (e) => {
		e.preventDefault();
		depth = 0;
		$('drop').hidden = true;
		const f = e.dataTransfer?.files?.[0];
		if (f) upload(f);
	});
	addEventListener('keydown', keys);
	addEventListener('hashchange', render);
	loadFiles().then(render).catch((e) => showError(`Could not reach the gpuprof server: ${e.message}`));
}

init();
