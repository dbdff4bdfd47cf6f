// ncu_raw: the "Raw metrics" tab of the Nsight Compute page: every metric
// of the selected kernel, as `gpuprof ncu raw --id N --format json` lists
// it (GET /api/file/ID/ncu/raw?id=N&print_units=auto|base): metric, unit,
// value (ncu's text for that unit choice: the row's text), instance count
// and description (the document's metric_descriptions), in the virtual
// searchable sortable table of table.js with its CSV button. Values are
// the server's text: they sort as text.
//
// State in the hash, beside ncu.js's: tab=raw (this tab instead of a
// section), units=base (default auto, as ncu), rq (search), rsort, rdir
// (the table's sort; the page's sort/dir/q belong to the hints table).

import { dataTable } from './table.js';
import { el } from './dom.js';


const now = () => Object.fromEntries(new URLSearchParams(location.hash.slice(1)));

// The rows of the table from the API's document (one kernel's).
export function rawRows(d) {
	const desc = new Map((d.metric_descriptions || []).map((r) => [r.metric, r.description]));
	return d.metrics.map((r) => ({
		metric: r.metric, unit: r.unit ?? null, value: r.text ?? null, instances: r.instances ?? null,
		description: desc.get(r.metric) ?? null,
	}));
}

// The tab's content for kernel kid; fetch(units): the raw answer of the
// kernel in those units (ncu.js asks it once per kernel and units); s: the
// hash state.
export async function rawMetricsTab(fetch, kid, s, writeHash) {
	const units = s.units === 'base' ? 'base' : 'auto';
	const d = await fetch(units);
	const sel = el('select', { dataset: { testid: 'ncu-raw-units' }, title: 'Units: auto (scaled as ncu prints them) or base' },
		el('option', { value: 'auto', textContent: 'auto', selected: units === 'auto' }),
		el('option', { value: 'base', textContent: 'base', selected: units === 'base' }));
	sel.addEventListener('change', () => writeHash({ ...now(), units: sel.value === 'base' ? 'base' : '' }, false));
	const table = dataTable({
		name: 'ncu-raw', rows: rawRows(d), tools: [el('label', {}, 'Units ', sel)],
		// the metrics joined with metric_descriptions: its own column's title
		titles: { description: 'Description' },
		state: { sort: s.rsort || '', dir: s.rdir || 'asc', q: s.rq || '' },
		onState: (t) => writeHash({ ...now(), rsort: t.sort, rdir: t.dir, rq: t.q }),
	});
	return el('div', { className: 'ncu-raw', dataset: { testid: 'ncu-raw', kernel: String(kid), units } }, table);
}
