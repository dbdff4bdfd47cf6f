// banner: the input anomalies that change the numbers, at the top of every
// page of a trace: a truncated input (the views count only what was read)
// and the events the reader dropped (GET /api/file/ID/info's anomalies,
// `gpuprof info`). The other anomalies (zero durations, overlaps, ...)
// leave the numbers as the plugin's and are listed on the Overview only.

import { el } from './dom.js';

// The anomaly keys (src/trace/anomaly.h) whose events are not counted, or
// that cut the trace short.
const CHANGE_NUMBERS = new Set(['truncated', 'time_out_of_range', 'event_not_object', 'missing_ph', 'missing_ts']);

const infoOf = new Map(); // file id -> its info's anomalies (promise)

// Fills host for file id (a trace when isTrace; otherwise empties it).
export async function renderBanner(host, id, isTrace, api) {
	if (!isTrace) {
		host.replaceChildren();
		host.hidden = true;
		return;
	}
	if (!infoOf.has(id)) infoOf.set(id, api(`/api/file/${id}/info`).then((d) => d.anomalies || [], () => []));
	const all = await infoOf.get(id);
	const bad = all.filter((a) => CHANGE_NUMBERS.has(a.anomaly) && a.count > 0);
	host.hidden = !bad.length;
	host.replaceChildren(...(bad.length ? [
		el('strong', { textContent: 'The numbers of this trace are incomplete: ' }),
		...bad.map((a, i) => el('span', { dataset: { anomaly: a.anomaly } }, i ? '; ' : '',
			a.anomaly === 'truncated' ? `the input ends before the trace is complete (at byte ${a.first_offset_bytes ?? '?'}): only the events before are counted`
				: `${a.count} ${a.count === 1 ? 'event' : 'events'} dropped: ${a.description} (first at byte ${a.first_offset_bytes ?? '?'})`)),
		'. The Overview lists every input anomaly.',
	] : []));
}
