// ncu: the Nsight Compute page of the viewer, over /api/file/ID/ncu/VERB
// (the JSON of `gpuprof ncu VERB --format json`): a kernel sidebar (search,
// type badge, grid/block, duration), the selected kernel's sections as tabs
// with their metric rows and rule results, the session/device panel and the
// report's hints table. State in the hash: kernel=ID, section=NAME (or a
// section identifier, as the hints table links), kq=TEXT. The charts above a
// section's table come from ncu_charts.js (GET .../ncu/body). The last tab,
// "Raw metrics" (tab=raw), lists every metric of the kernel (ncu_raw.js).
// The first tab, "Summary" (tab=summary, the default when the hash names
// no section), shows the kernel's headline numbers and every hint
// (ncu_summary.js). The Memory Workload Analysis tab starts with the memory
// chart (ncu_memchart.js). A kernel with source counters has a "Source" tab
// (tab=source, ncu_source.js).

import { fmtDur } from './fmt.js';
import { CHART_METRICS, bySpeedup, hbars, indexBody, sectionCharts } from './ncu_charts.js';
import { labelIndex, rawIndex, summaryCards, summaryTab } from './ncu_summary.js';
import { memchartValues, memoryDiagram } from './ncu_memchart.js';
import { SOURCE_METRICS, sourceTab } from './ncu_source.js';
import { rawMetricsTab } from './ncu_raw.js';
import { dataTable, downloadCsv } from './table.js';
import { el } from './dom.js';

const cache = new Map(); // file id -> {list, session, hints, raw: Map(kernel id/units -> answer promise)}

// The state in the hash now (handlers write over it, not over the state of
// the last render: a table's search or sort may have changed it since).
const now = () => Object.fromEntries(new URLSearchParams(location.hash.slice(1)));

// Groups details rows into sections in the server's order: metric rows carry
// the section's display name; rule rows (which carry the section's
// identifier) follow their section's metrics.
export function groupSections(rows) {
	const secs = [];
	let last = null, lastRuleId = null;
	for (const r of rows) {
		if (r.rule === null) {
			if (!last || last.name !== r.section) {
				last = secs.find((s) => s.name === r.section) || (secs.push({ name: r.section, metrics: [], rules: [] }), secs[secs.length - 1]);
				lastRuleId = null;
			}
			last.metrics.push(r);
		} else {
			if (!last || (lastRuleId !== null && lastRuleId !== r.section && !last.metrics.length)) {
				last = { name: r.section, metrics: [], rules: [] };
				secs.push(last);
			}
			lastRuleId = r.section;
			last.rules.push(r);
		}
	}
	return secs;
}

async function load(api, id) {
	if (!cache.has(id)) {
		const [list, session, hints] = await Promise.all([
			api(`/api/file/${id}/ncu/list`), api(`/api/file/${id}/ncu/session`), api(`/api/file/${id}/ncu/hints`)]);
		cache.set(id, { list: list.kernels, session, hints: hints.hints, raw: new Map() });
	}
	return cache.get(id);
}

// The raw answer of kernel kid in those units, asked once per file.
function rawOf(api, id, d, kid, units) {
	const k = `${kid}/${units}`;
	if (!d.raw.has(k)) {
		const p = api(`/api/file/${id}/ncu/raw?id=${encodeURIComponent(kid)}&print_units=${units}`);
		p.catch(() => d.raw.delete(k));
		d.raw.set(k, p);
	}
	return d.raw.get(k);
}

function sidebar(kernels, s, writeHash) {
	const search = el('input', { type: 'search', placeholder: 'Search kernels…', value: s.kq || '', dataset: { testid: 'ncu-search' } });
	search.setAttribute('aria-label', 'Search kernels');
	const csv = el('button', { textContent: 'CSV', title: 'Download the kernel list as CSV', dataset: { testid: 'csv-ncu-kernels' } });
	const ul = el('ul', { className: 'ncu-kernels', dataset: { testid: 'ncu-kernels' } });
	const count = el('span', { className: 'count' });
	const shown = () => {
		const q = search.value.trim().toLowerCase();
		return q ? kernels.filter((k) => k.kernel.toLowerCase().includes(q) || k.type.toLowerCase().includes(q)) : kernels;
	};
	const render = () => {
		const rows = shown();
		ul.replaceChildren(...rows.slice(0, 2000).map((k) => {
			const li = el('li', { className: String(k.id) === String(s.kernel) ? 'active' : '', title: k.kernel, dataset: { testid: 'ncu-kernel', id: String(k.id) } },
				el('div', { className: 'kname' }, el('span', { className: 'badge', textContent: k.type, dataset: { type: k.type } }), ` ${k.kernel}`),
				el('div', { className: 'kmeta', textContent: `#${k.id} · grid ${k.grid} · block ${k.block} · ${k.dur_ns === null ? '-' : fmtDur(k.dur_ns)}` }));
			li.addEventListener('click', () => writeHash({ ...now(), kernel: String(k.id), kq: search.value }, false));
			return li;
		}));
		count.textContent = rows.length === kernels.length ? `${kernels.length} kernels` : `${rows.length} of ${kernels.length} kernels`;
	};
	search.addEventListener('input', () => { render(); writeHash({ ...now(), kq: search.value }); });
	csv.addEventListener('click', () => downloadCsv('ncu-kernels.csv', Object.keys(kernels[0] || {}), shown()));
	render();
	const box = el('aside', { className: 'ncu-side' }, el('div', { className: 'tools' }, search, csv), count, ul);
	box.focusSearch = () => search.focus();
	return box;
}

function kvTable(obj, testid) {
	return el('table', { className: 'kv', dataset: { testid } }, ...Object.entries(obj).map(([k, v]) =>
		el('tr', {}, el('th', { textContent: k.replace(/_/g, ' ') }), el('td', { textContent: v === null ? '-' : String(v) }))));
}

// A section's metric rows; the metric cell's title: the metric's name and
// its description (the details answer's metric_name and description).
function metricsTable(metrics) {
	const about = new WeakMap();
	const rows = metrics.map((r) => {
		const row = { item: r.item, metric: r.metric, unit: r.unit, value: r.value };
		about.set(row, r);
		return row;
	});
	const cell = (v, row) => {
		const r = about.get(row);
		if (!r?.metric_name) return null;
		return el('span', { textContent: v ?? '', title: r.description ? `${r.metric_name}: ${r.description}` : r.metric_name,
			dataset: { metric: r.metric_name, description: r.description ?? '' } });
	};
	return dataTable({ name: 'ncu-metrics', rows, search: false, cells: { metric: cell } });
}

function hintText(r) {
	return r.speedup_pct === null || r.speedup_pct === undefined ? '' : `est. speedup ${typeof r.speedup_pct === 'number' ? r.speedup_pct.toFixed(2) : r.speedup_pct} % (${r.speedup_type})`;
}

export async function renderNcu(api, id, s, writeHash, section) {
	const d = await load(api, id);
	const kernels = d.list;
	const side = sidebar(kernels, s, writeHash);
	const kid = kernels.some((k) => String(k.id) === String(s.kernel)) ? String(s.kernel) : kernels.length ? String(kernels[0].id) : null;
	const main = [];
	if (kid !== null) {
		const k = kernels.find((x) => String(x.id) === kid);
		const raw = s.tab === 'raw', source = s.tab === 'source';
		const summary = !raw && !source && (s.tab === 'summary' || (!s.tab && !s.section));
		const [det, bod, auto, sass] = await Promise.all([api(`/api/file/${id}/ncu/details?id=${kid}`),
			raw ? { body: [] } : api(`/api/file/${id}/ncu/body?id=${kid}&metric=${encodeURIComponent(source ? SOURCE_METRICS : CHART_METRICS)}`),
			summary ? rawOf(api, id, d, kid, 'auto') : null,
			// the SASS text (`ncu source`), where the server has nvdisasm
			source ? api(`/api/file/${id}/ncu/source?id=${kid}`).catch(() => null) : null]);
		const secs = groupSections(det.details);
		const idx = indexBody(bod.body);
		// a section by display name, or by identifier (hint links)
		const byId = [...idx.sections.values()].find((x) => x.id === s.section);
		const cur = raw || summary || source ? null : secs.find((x) => x.name === s.section || (byId && x.name === byId.name) || x.rules.some((r) => r.section === s.section)) || secs[0];
		const rawTab = el('button', { textContent: 'Raw metrics', className: raw ? 'active' : '', title: 'Every metric of this kernel', dataset: { testid: 'ncu-raw-tab' } });
		rawTab.addEventListener('click', () => writeHash({ ...now(), kernel: kid, tab: 'raw' }, false));
		const sumTab = el('button', { textContent: 'Summary', className: summary ? 'active' : '', title: 'The headline numbers and every hint of this kernel', dataset: { testid: 'ncu-summary-tab' } });
		sumTab.addEventListener('click', () => writeHash({ ...now(), kernel: kid, tab: 'summary', section: '' }, false));
		// the Source tab: for a kernel profiled with the SourceCounters section
		const hasSource = secs.some((x) => x.name === 'Source Counters' || x.rules.some((r) => r.section === 'SourceCounters'));
		const srcTab = el('button', { textContent: 'Source', className: source ? 'active' : '', title: 'Per-instruction counters, the hottest first', dataset: { testid: 'ncu-source-tab' } });
		srcTab.addEventListener('click', () => writeHash({ ...now(), kernel: kid, tab: 'source' }, false));
		const tabs = el('nav', { className: 'ncu-tabs', dataset: { testid: 'ncu-sections' } }, sumTab, ...secs.map((x) => {
			const b = el('button', { textContent: x.rules.length ? `${x.name} (${x.rules.length})` : x.name, className: x === cur ? 'active' : '', dataset: { testid: 'ncu-section-tab', name: x.name } });
			b.addEventListener('click', () => writeHash({ ...now(), kernel: kid, section: x.name, tab: '' }, false));
			return b;
		}), ...(hasSource || source ? [srcTab] : []), rawTab);
		const body = [];
		// every rule message of the kernel, highest estimated speedup first
		const mine = bySpeedup(d.hints.filter((x) => String(x.id) === kid));
		const openSection = (sec) => writeHash({ ...now(), kernel: kid, section: sec, tab: '' }, false);
		if (raw) body.push(await rawMetricsTab((units) => rawOf(api, id, d, kid, units), kid, s, writeHash));
		if (source) body.push(sourceTab(bod.body, s, (t) => writeHash({ ...now(), ssort: t.sort, sdir: t.dir, sq: t.q }), sass));
		if (summary) body.push(summaryTab(summaryCards(rawIndex(auto), labelIndex(idx.sections)), mine, { bars: hbars, hintText, open: openSection }));
		if (cur) {
			// the Memory tab (and the memory chart's own section): the diagram first
			if (/^MemoryWorkloadAnalysis(_Chart)?$/.test(idx.sections.get(cur.name)?.id ?? '')) {
				body.push(el('div', { className: 'ncu-charts' }, memoryDiagram(memchartValues(rawIndex(await rawOf(api, id, d, kid, 'auto'))))));
			}
			const charts = sectionCharts(cur.name, idx);
			if (charts) body.push(charts);
			body.push(metricsTable(cur.metrics));
			if (cur.rules.length) {
				body.push(el('h3', { textContent: 'Rule results' }), el('ul', { className: 'ncu-rules', dataset: { testid: 'ncu-rules' } }, ...bySpeedup(cur.rules).map((r) =>
					el('li', {}, el('span', { className: 'badge', textContent: r.type ?? '', dataset: { type: r.type ?? '' } }), ` ${r.rule}: `,
						el('span', { className: 'speedup', textContent: hintText(r) }), el('div', { textContent: r.message ?? '' })))));
			}
		}
		const ranked = el('ol', { className: 'ncu-rules ncu-ranked', dataset: { testid: 'ncu-kernel-hints' } }, ...mine.map((r) => {
			const li = el('li', { title: `Open ${r.section}` }, el('span', { className: 'badge', textContent: r.type ?? '', dataset: { type: r.type ?? '' } }),
				` ${r.section} · ${r.rule}${r.title ? ` (${r.title})` : ''}: `, el('span', { className: 'speedup', textContent: hintText(r) || 'no estimate' }));
			li.dataset.section = r.section;
			li.addEventListener('click', () => openSection(r.section));
			return li;
		}));
		main.push(section(`Kernel #${kid}: ${k.kernel}`,
			el('div', { className: 'kmeta', dataset: { testid: 'ncu-kernel-meta' }, textContent: `${k.type} · grid ${k.grid} · block ${k.block} · ${k.dur_ns === null ? '-' : fmtDur(k.dur_ns)} · ${k.hints} hints` }),
			tabs, el('div', { dataset: { testid: raw ? 'ncu-raw-host' : summary ? 'ncu-summary-host' : source ? 'ncu-source-host' : 'ncu-section', section: cur ? cur.name : '' } }, ...body),
			...(mine.length && !summary && !source ? [el('details', { className: 'ncu-kernel-hints' }, el('summary', { textContent: `Hints of this kernel by estimated speedup (${mine.length})` }), ranked)] : [])));
	} else {
		main.push(el('p', { className: 'empty', textContent: 'The report has no profiled kernels.' }));
	}
	const ses = d.session;
	main.push(section('Session', el('div', { className: 'ncu-session', dataset: { testid: 'ncu-session' } },
		kvTable({ ...ses.launch_settings, ...ses.session_info }, 'ncu-session-info')),
	dataTable({ name: 'device-attributes', rows: ses.device_attributes, search: true }),
	dataTable({ name: 'processes', rows: ses.processes, search: false })));
	const hints = dataTable({ name: 'hints', rows: d.hints, state: { sort: s.sort || '', dir: s.dir || 'desc', q: s.q || '' },
		onState: (t) => writeHash({ ...now(), sort: t.sort, dir: t.dir, q: t.q }) });
	// a click on a hint row opens its kernel and section
	hints.classList.add('ncu-hint-links');
	hints.title = 'Click a row to open its kernel and section';
	hints.addEventListener('click', (ev) => {
		const tr = ev.target.closest('tbody tr');
		if (!tr) return;
		const keys = [...hints.querySelectorAll('thead th')].map((th) => th.dataset.key);
		const cell = (k) => tr.cells[keys.indexOf(k)]?.textContent ?? '';
		writeHash({ ...now(), kernel: cell('id'), section: cell('section'), tab: '' }, false);
	});
	main.push(section('Hints (all kernels)', hints));
	return { kids: [el('div', { className: 'ncu-page' }, side, el('div', { className: 'ncu-main' }, ...main))], search: side };
}
