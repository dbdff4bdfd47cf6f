// fmt: numbers for people, as gpuprof's text tables print them
// (src/report/report.c: rep_fmt_dur, rep_fmt_bytes), so the page and the
// CLI agree to the digit. JSON keys carry the unit: *_ns, *_bytes (or bytes), *_pct.

import { TITLES } from './titles.js';

function divRound(m, div) {
	const q = Math.floor(m / div), rem = m - q * div;
	return q + (rem >= div - rem ? 1 : 0);
}

// ns: a number of nanoseconds, a fraction rounded half away from zero as
// the CLI's llround does (164300.34 -> "164.300 us"); not a finite number: '-'.
export function fmtDur(ns) {
	if (typeof ns !== 'number' || !Number.isFinite(ns)) return '-';
	const m = Math.round(Math.abs(ns));
	const sign = ns < 0 && m > 0 ? '-' : '';
	if (m < 1000) return `${sign}${m} ns`;
	const units = ['us', 'ms', 's'];
	let div = 1, milli = m, u = 0;
	while (milli >= 1000000 && u < 2) {
		u++;
		div *= 1000;
		milli = divRound(m, div);
	}
	return `${sign}${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')} ${units[u]}`;
}

export function fmtBytes(b) {
	if (typeof b !== 'number' || !Number.isFinite(b)) return '-';
	const m = Math.round(Math.abs(b));
	const sign = b < 0 && m > 0 ? '-' : '';
	if (m < 1024) return `${sign}${m} B`;
	const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
	let centi = 0, u = 0;
	do {
		u++;
		const div = 2 ** (10 * u);
		centi = Math.floor(m / div) * 100 + divRound((m % div) * 100, div);
	} while (centi >= 102400 && u < 4);
	return `${sign}${Math.floor(centi / 100)}.${String(centi % 100).padStart(2, '0')} ${units[u]}`;
}

export function kind(key) {
	if (key.endsWith('_ns')) return 'dur';
	if (key.endsWith('_bytes') || key === 'bytes') return 'bytes';
	if (key.endsWith('_pct') || key === 'pct') return 'pct';
	return 'raw';
}

export function fmt(key, v) {
	if (v === null || v === undefined) return '-';
	if (typeof v === 'boolean') return v ? 'yes' : 'no';
	if (typeof v !== 'number') return String(v);
	switch (kind(key)) {
	// a mean or a median is a double: rounded as the CLI's llround does
	case 'dur': return fmtDur(v);
	case 'bytes': return fmtBytes(v);
	case 'pct': return `${v.toFixed(2)} %`;
	default: return Number.isInteger(v) ? String(v) : String(+v.toPrecision(6));
	}
}

// Titles of the columns the pages add themselves (web/share.js), which no
// declaration of the CLI has.
const PAGE_TITLES = {
	device_self_share_pct: 'Share of Device Self',
	host_self_share_pct: 'Share of Host Self',
};

// The column title of API key: the CLI's (titles.js, generated from the
// declarations), a page's own column, else the key's words: "calls" ->
// "Calls".
export function title(key) {
	if (TITLES[key]) return TITLES[key];
	if (PAGE_TITLES[key]) return PAGE_TITLES[key];
	const s = key === 'pct' ? 'percentage' : key.replace(/_(ns|bytes|pct)$/, '').replace(/_/g, ' ');
	return s.charAt(0).toUpperCase() + s.slice(1);
}

const UNITS = { dur: 'a duration', bytes: 'bytes', pct: 'percent' };

// The column's tooltip: its title, unit and the key CSV and JSON use:
// "GPU Utilization, percent (gpu_utilization_pct in CSV/JSON)".
export function tooltip(key, shown = title(key)) {
	const origin = key === 'start_ns' || key === 'end_ns' ? ' since the trace\'s start' : '';
	const unit = UNITS[kind(key)] ? `, ${UNITS[kind(key)]}${origin}` : '';
	return `${shown}${unit} (${key} in CSV/JSON)`;
}
