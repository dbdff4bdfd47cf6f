// ncu_csv: reading the CSV exports NVIDIA's ncu wrote of the real reports
// in ../shared/data/ncu, for tests that compare the page with them
// (ncu_summary, ncu_memchart). Formatting here is the test's own, not the
// page's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './harness.mjs';

// The reports these tests read: the project's fixture (tests/ncu/mkfull.py)
// and the real full report with ncu's raw CSV export (default units).
export const full = path.join(root, 'tests/golden/_inputs/full.ncu-rep');
export const dataDir = path.join(root, '../shared/data/ncu');
export const ffma = path.join(dataDir, 'ncu2025.3_rtx3080ti_full_probeffma.ncu-rep');
export const ffmaRaw = path.join(dataDir, 'ncu2025.3_rtx3080ti_full_probeffma.raw.csv');

// The Summary tab's cards of a page (web/ncu_summary.js), as data.
export const summaryCardsOf = (p) => p.getByTestId('ncu-summary-card').evaluateAll((els) => els.map((e) => ({
	key: e.dataset.key, label: e.querySelector('.label').textContent, value: e.querySelector('.value').textContent,
	metric: e.dataset.metric ?? null, unit: e.dataset.unit ?? null, num: e.dataset.value ?? null, title: e.title,
})));

// The fixture's first kernel's cards, [label, value], by hand from the
// values mkfull.py chooses: sgemm_tile, 80,000 ns; SM throughput = the
// largest of its breakdown (72.5 %); memory = DRAM 2e11 / 3.36e11 B/s =
// 59.52 %, the largest of its breakdown; occupancy 61.25 % achieved, 4
// blocks x 8 warps of 48 = 66.67 % theoretical; 1.5 GHz; 64 registers;
// 256 x 112 = 28,672 threads; 112 blocks / (4 per SM x 28 SMs) = 1 wave.
// No Compute Workload Analysis metrics: SM Busy and IPC are n/a. (Used by
// the server's and the static site's tests alike.)
export const FULL_KERNEL0_CARDS = [
	['Duration', '80 us'], ['Compute (SM) Throughput', '72.50 %'], ['Memory Throughput', '59.52 %'], ['DRAM Throughput', '59.52 %'],
	['SM Busy', 'n/a'], ['Achieved Occupancy', '61.25 %'], ['Theoretical Occupancy', '66.67 %'], ['Executed Ipc Active', 'n/a'],
	['Executed Ipc Elapsed', 'n/a'], ['SM Frequency', '1.50 Ghz'], ['Registers Per Thread', '64 register/thread'], ['Block Size', '256'],
	['Grid Size', '112'], ['Threads', '28,672 thread'], ['Waves Per SM', '1']];

// A CSV of ncu's (every field quoted): rows of fields.
export function csv(text) {
	const rows = [];
	let row = [], f = '', q = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (q) {
			if (c === '"' && text[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c;
		} else if (c === '"') q = true;
		else if (c === ',') { row.push(f); f = ''; } else if (c === '\n') { row.push(f); rows.push(row); row = []; f = ''; } else if (c !== '\r') f += c;
	}
	if (f || row.length) { row.push(f); rows.push(row); }
	return rows;
}

// The rows of a file's first n lines (the 2025.3.1 exports end in a Python
// traceback the author's shell merged in: PROVENANCE.md), BOM dropped.
export const csvFile = (file, n = Infinity) => csv(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')).slice(0, n);

// ncu's details-page text of a cell of its raw CSV in default (auto) units:
// a unit-less cell is that text already; a scaled one has 6 decimals: 2
// decimals with separators, none when the value is integral.
export function detailText(cell, unit) {
	if (!unit) return cell;
	const v = Number(cell.replace(/,/g, ''));
	return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// |got - cell| within the 6 decimals the raw CSV prints.
export const closeToCell = (got, cell) => Math.abs(Number(got) - Number(cell.replace(/,/g, ''))) <= 5e-7 * Math.max(1, Math.abs(Number(cell.replace(/,/g, ''))));
