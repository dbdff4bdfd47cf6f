// fmt: numbers for people, as gpuprof's text tables print them
// (src/report/report.c: rep_fmt_dur, rep_fmt_bytes), so the page and the
// CLI agree to the digit. JSON keys carry the unit: *_ns, *_bytes (or bytes), *_pct.

function divRound(m, div) {
	const q = Math.floor(m / div), rem = m - q * div;
	return q + (rem >= div - rem ? 1 : 0);
}

export function fmtDur(ns) {
	const sign = ns < 0 ? '-' : '';
	const m = Math.abs(ns);
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
	const sign = b < 0 ? '-' : '';
	const m = Math.abs(b);
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
	case 'dur': return fmtDur(Number.isInteger(v) ? v : Math.sign(v) * Math.round(Math.abs(v)));
	case 'bytes': return fmtBytes(v);
	case 'pct': return `${v.toFixed(2)} %`;
	default: return Number.isInteger(v) ? String(v) : String(+v.toPrecision(6));
	}
}

// "device_self_ns" -> "Device self"
export function title(key) {
	const s = key === 'pct' ? 'percentage' : key.replace(/_(ns|bytes|pct)$/, '').replace(/_/g, ' ');
	return s.charAt(0).toUpperCase() + s.slice(1);
}
