// Unit tests of web/fmt.js under node (no browser): each expected string is
// written by hand, as `gpuprof`'s text tables print the value
// (src/report/report.c: three decimals of the largest unit under 1000,
// rounded half up; bytes in binary units with two decimals).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmt, fmtDur, fmtBytes, title, tooltip } from '../../web/fmt.js';

// f(value) of each [value, expected] case
const each = (f, cases) => { for (const [v, want] of cases) assert.equal(f(v), want, `${f.name}(${v})`); };

test('durations', () => {
	each(fmtDur, [
		[0, '0 ns'],
		[1, '1 ns'],
		[999, '999 ns'],
		[999.4, '999 ns'],
		[999.5, '1.000 us'], // rounded to the ns first, as llround
		[999.999, '1.000 us'],
		[1000, '1.000 us'],
		[1234, '1.234 us'],
		[50032.64, '50.033 us'],
		[164300.34, '164.300 us'],
		[164300.5, '164.301 us'],
		[999999, '999.999 us'],
		[999999.4, '999.999 us'],
		[999999.5, '1.000 ms'], // 999.9995 us
		[1000000, '1.000 ms'],
		[1234567, '1.235 ms'],
		[999999499, '999.999 ms'],
		[999999500, '1.000 s'],
		[1700000590123456, '1700000.590 s'],
		[-1, '-1 ns'],
		[-164300.34, '-164.300 us'],
		[-1234567, '-1.235 ms'],
		[-0.4, '0 ns'],
		[NaN, '-'],
		[Infinity, '-'],
		[null, '-'],
		[undefined, '-'],
	]);
});

test('bytes', () => {
	each(fmtBytes, [
		[0, '0 B'],
		[1023, '1023 B'],
		[1024, '1.00 KiB'],
		[1536, '1.50 KiB'],
		[1048575, '1.00 MiB'], // 1023.999 KiB rounds to 1024.00 KiB: the next unit, as rep_fmt_bytes
		[1048576, '1.00 MiB'],
		[85045477376, '79.20 GiB'],
		[-2048, '-2.00 KiB'],
		[NaN, '-'],
		[null, '-'],
	]);
});

test('fmt by key', () => {
	assert.equal(fmt('avg_ns', 164300.34), '164.300 us');
	assert.equal(fmt('total_ns', 6376806), '6.377 ms');
	assert.equal(fmt('memory_bytes', 85045477376), '79.20 GiB');
	assert.equal(fmt('gpu_utilization_pct', 41.34030106682144), '41.34 %');
	assert.equal(fmt('pct', 100), '100.00 %');
	assert.equal(fmt('calls', 12), '12');
	assert.equal(fmt('ratio', 0.123456789), '0.123457');
	assert.equal(fmt('avg_ns', null), '-');
	assert.equal(fmt('kernels', undefined), '-');
	assert.equal(fmt('tc_used', true), 'yes');
	assert.equal(fmt('name', 'aten::mm'), 'aten::mm');
});

test('column titles and tooltips', () => {
	// the CLI's text-table titles (gpuprof summary, ops, steps)
	each(title, [
		['sms', 'SMs'],
		['gpu_utilization_pct', 'GPU Utilization'],
		['est_sm_efficiency_pct', 'Est. SM Efficiency'],
		['est_achieved_occupancy_pct', 'Est. Achieved Occupancy'],
		['device_self_ns', 'Device Self'],
		['start_ns', 'Start'],
		['calls', 'Calls'],
		['total_ns', 'Total'],
	]);
	each(tooltip, [
		['gpu_utilization_pct', 'GPU Utilization, percent (gpu_utilization_pct in CSV/JSON)'],
		['total_ns', 'Total, a duration (total_ns in CSV/JSON)'],
		['start_ns', "Start, a duration since the trace's start (start_ns in CSV/JSON)"],
		['calls', 'Calls (calls in CSV/JSON)'],
	]);
});
