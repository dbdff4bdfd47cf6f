// Browser tests of the Nsight Systems iteration analysis (web/nsys_iter.js).
// Serves an analysis.json written here by `gpuprof nsys analyze --from-csv`
// on the fixture run directory tests/nsys/run_small, the tiny export of
// tests/nsys/check_sqlite.py and the run directory itself, and checks what
// the page shows against the JSON: the iteration table cell for cell, the
// summary numbers as the JSON's own text, the histogram's bars (counts and
// heights recomputed here from the JSON by the rule documented in
// nsys_iter.js), the warnings, the provenance, the range selector, the CSV,
// and on the export the capture range / iterations inputs against
// `gpuprof nsys FILE steps`. Screenshot: nsys-iterations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, gpuprof, startServer, launchBrowser, newPage, shot, serveOnly } from './harness.mjs';
import { fmt } from '../../web/fmt.js';

const notHere = serveOnly('Nsight Systems run directories and SQLite exports');

let dir, server, browser, page, text, an, db;

before(async () => {
	if (notHere) return;
	dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-web-nsys-'));
	const run = path.join(dir, 'run');
	cpSync(path.join(root, 'tests/nsys/run_small'), run, { recursive: true });
	execFileSync(gpuprof, ['nsys', 'analyze', '--run-dir', run, '--from-csv', '-q']);
	text = readFileSync(path.join(run, 'analysis.json'), 'utf8');
	an = JSON.parse(text);
	db = path.join(dir, 'tiny.sqlite');
	execFileSync('python3', ['-c', 'import sys; sys.path.insert(0, sys.argv[1]); import check_sqlite; check_sqlite.make_tiny(sys.argv[2], True)',
		path.join(root, 'tests/nsys'), db]);
	// 1: the analysis.json, 2: the export, 3: the run directory (analysed in memory)
	server = await startServer([path.join(run, 'analysis.json'), db, path.join(root, 'tests/nsys/run_small')]);
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

const steps = (...args) => JSON.parse(execFileSync(gpuprof, ['nsys', db, 'steps', ...args], { encoding: 'utf8' }));

const COLS = ['index', 'host_inclusive_ns', 'host_exclusive_ns', 'host_child_ns', 'gpu_projected_ns', 'gpu_operations', 'gpu_host_range_ns'];
const rowOf = (it) => [it.index, it.host?.inclusive_ns, it.host?.exclusive_ns, it.host?.child_total_ns,
	it.gpu_projection?.projected_ns, it.gpu_projection?.gpu_operation_count, it.gpu_projection?.host_range_total_ns];

// the iteration table's cells, as the page formats the JSON's values
async function checkIterationTable(a, label) {
	const t = page.getByTestId('table-nsys-iterations');
	await t.locator('tbody tr').first().waitFor();
	assert.deepEqual(await t.locator('th').evaluateAll((ths) => ths.map((x) => x.dataset.key)), COLS, label);
	const cells = await t.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
	assert.deepEqual(cells, a.iterations.map((it) => rowOf(it).map((v, i) => fmt(COLS[i], v ?? null))), label);
}

// the histogram's bars recomputed from the JSON (the rule of nsys_iter.js)
function bins(a) {
	const host = a.iterations.filter((i) => i.host).map((i) => i.host.inclusive_ns);
	const gpu = a.iterations.filter((i) => i.gpu_projection).map((i) => i.gpu_projection.projected_ns);
	const n = Math.min(20, Math.max(1, Math.ceil(Math.sqrt(a.iterations.length))));
	const all = [...host, ...gpu], lo = Math.min(...all), hi = Math.max(...all);
	const count = (vs) => {
		const c = new Array(n).fill(0);
		for (const v of vs) c[hi === lo ? 0 : Math.min(n - 1, Math.floor(((v - lo) * n) / (hi - lo)))]++;
		return c;
	};
	return { host: count(host), gpu: count(gpu) };
}

test('an analysis.json: iterations, summary, histogram, warnings, provenance', { skip: notHere }, async () => {
	await page.goto(`${server.url}#file=1`);
	await checkIterationTable(an, 'analysis.json');
	assert.match(await page.evaluate(() => location.hash), /view=nsys/);
	// the fixture: six iterations, iteration 3 without a GPU projection
	assert.equal(an.iterations.length, 6);
	assert.equal(await page.getByTestId('nsys-card-iterations').textContent(), '6');
	assert.equal(await page.getByTestId('nsys-card-gpu-iterations').textContent(), '5');
	const row3 = await page.getByTestId('table-nsys-iterations').locator('tbody tr').nth(3).locator('td').allTextContents();
	assert.deepEqual(row3.slice(4), ['-', '-', '-']);
	// the summary rows: the JSON's numbers, as its own text writes them
	const sum = an.iteration_summary;
	const keys = ['total_ns', 'mean_ns', 'median_ns', 'minimum_ns', 'maximum_ns', 'stddev_ns'];
	for (const [label, count, s] of [['Host inclusive', sum.host_iterations, sum.host_inclusive],
		['Host exclusive', sum.host_iterations, sum.host_exclusive], ['GPU projected', sum.gpu_projected_iterations, sum.gpu_projected]]) {
		const cells = await page.locator(`[data-testid=nsys-iter-summary] tr[data-measure="${label}"] td`).allTextContents();
		assert.deepEqual(cells, [label, String(count), ...keys.map((k) => String(s[k]))], label);
		for (const [i, k] of keys.entries()) {
			assert.equal(Number(cells[i + 2]), s[k], `${label} ${k}`);
			if (!Number.isInteger(s[k])) assert.ok(text.includes(`"${k}": ${cells[i + 2]}`), `${label} ${k}: ${cells[i + 2]} not in the JSON text`);
		}
	}
	assert.equal(await page.locator('[data-testid=nsys-iter-summary] tr[data-measure="Host inclusive"] td').nth(7).textContent(), '1523.701633085253');
	// the histogram: a host and a GPU bar per bin, counts and heights from the JSON
	const want = bins(an);
	assert.equal(want.host.length, 3); // ceil(sqrt(6))
	const max = Math.max(...want.host, ...want.gpu);
	for (const series of ['host', 'gpu']) {
		const bars = await page.locator(`[data-testid=nsys-iter-hist] rect[data-series=${series}]`).evaluateAll((rs) =>
			rs.map((r) => [Number(r.dataset.bin), Number(r.dataset.count), Number(r.getAttribute('height'))]));
		assert.deepEqual(bars.map((b) => b[0]), want[series].map((_, i) => i), series);
		assert.deepEqual(bars.map((b) => b[1]), want[series], series);
		bars.forEach((b, i) => assert.ok(Math.abs(b[2] - (want[series][i] / max) * 160) < 1e-9, `${series} bar ${i}: height ${b[2]}`));
	}
	assert.equal(want.host.reduce((x, y) => x + y), 6);
	assert.equal(want.gpu.reduce((x, y) => x + y), 5);
	// the warnings, in the JSON's order
	assert.equal(an.warnings.length, 3);
	assert.deepEqual(await page.locator('[data-testid=nsys-warnings] li').allTextContents(), an.warnings);
	// the provenance and the run
	const prov = await page.getByTestId('nsys-provenance').locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent]));
	const pm = new Map(prov);
	assert.equal(pm.get('Nsight Systems version'), an.provenance.nsys_version);
	assert.equal(pm.get('Manifest'), 'manifest.yaml');
	assert.equal(pm.get('run.run_id'), 'fixture-run');
	assert.equal(pm.get('run.workload'), JSON.stringify(an.run.workload));
	await shot(page, 'nsys-iterations');
});

test('the range selector and the CSV of the iteration table', { skip: notHere }, async () => {
	await page.goto(`${server.url}#file=1&view=nsys`);
	await page.getByTestId('nsys-range-select').waitFor();
	await page.getByTestId('nsys-range-select').selectOption('preprocessing.resize');
	await page.waitForURL(/range=preprocessing.resize/);
	const h = an.host_ranges.find((r) => r.name === 'preprocessing.resize');
	const g = an.gpu_projected_ranges.find((r) => r.name === 'preprocessing.resize');
	const row = (m) => page.locator(`[data-testid=nsys-range-summary] tr[data-measure="${m}"] td`).allTextContents();
	await page.locator('[data-testid=nsys-range-summary] tr[data-measure="Host inclusive"] td').first().waitFor();
	const keys = ['total_ns', 'mean_ns', 'median_ns', 'minimum_ns', 'maximum_ns', 'stddev_ns'];
	// the hash changes before the page re-renders: wait for the new range's rows
	const want = ['Host inclusive', String(h.instances), ...keys.map((k) => String(h.inclusive[k]))];
	for (let i = 0; i < 100 && JSON.stringify(await row('Host inclusive')) !== JSON.stringify(want); i++) await page.waitForTimeout(50);
	assert.deepEqual(await row('Host inclusive'), want);
	assert.deepEqual(await row('Host exclusive'), ['Host exclusive', String(h.instances), ...keys.map((k) => String(h.exclusive[k]))]);
	assert.deepEqual(await row('GPU projected'), ['GPU projected', String(g.instances), ...keys.map((k) => String(g.projected[k]))]);
	// the CSV: the columns and the raw numbers, empty where a side is missing
	const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-nsys-iterations').click()]);
	const csv = (await (await dl.createReadStream()).toArray()).join('');
	const lines = csv.trim().split('\n');
	assert.equal(lines[0], COLS.join(','));
	assert.deepEqual(lines.slice(1), an.iterations.map((it) => rowOf(it).map((v) => (v === undefined ? '' : String(v))).join(',')));
	// sorting the table keeps its state in the hash, over a reload
	await page.getByTestId('table-nsys-iterations').locator('th[data-key=host_inclusive_ns]').click();
	assert.match(await page.evaluate(() => location.hash), /table=nsys-iterations.*sort=host_inclusive_ns/);
	await page.reload();
	const firstCol = page.getByTestId('table-nsys-iterations').locator('tbody tr td:first-child');
	await firstCol.first().waitFor();
	const byHost = [...an.iterations].sort((x, y) => y.host.inclusive_ns - x.host.inclusive_ns).map((i) => String(i.index));
	assert.deepEqual(await firstCol.allTextContents(), byHost);
	assert.match(await page.evaluate(() => location.hash), /range=preprocessing.resize/);
});

test('an export: the Iterations section follows the capture range and iteration inputs', { skip: notHere }, async () => {
	await page.goto(`${server.url}#file=2`);
	await page.getByTestId('table-nsys-kernels').locator('tbody tr').first().waitFor();
	await checkIterationTable(steps(), 'export, defaults');
	assert.equal(await page.locator('[data-testid=nsys-warnings] li').count(), 0);
	// an iteration count: the warning of `gpuprof nsys FILE steps --iterations 3`
	await page.getByTestId('nsys-iterations-input').fill('3');
	await page.getByTestId('nsys-analyse').click();
	await page.waitForURL(/iters=3/);
	const want = steps('--iterations', '3');
	await page.locator('[data-testid=nsys-warnings] li').first().waitFor();
	assert.deepEqual(await page.locator('[data-testid=nsys-warnings] li').allTextContents(), want.warnings);
	assert.deepEqual(want.warnings, ['Missing expected iteration indexes: [2].']);
	await checkIterationTable(want, 'export, --iterations 3');
	// a reload keeps the inputs
	await page.reload();
	await page.locator('[data-testid=nsys-warnings] li').first().waitFor();
	assert.equal(await page.getByTestId('nsys-iterations-input').inputValue(), '3');
	// a capture range the export does not have: the analyzer's message
	await page.getByTestId('nsys-capture-range').fill('nope');
	await page.getByTestId('nsys-analyse').click();
	await page.getByTestId('nsys-iter-error').waitFor();
	assert.match(await page.getByTestId('nsys-iter-error').textContent(), /Expected exactly one top-level host capture range named 'nope', but found 0\./);
	// the export's own tables are still there
	assert.ok(await page.getByTestId('table-nsys-kernels').locator('tbody tr').count() > 0);
});

test('a run directory: analysed in memory, the same iterations', { skip: notHere }, async () => {
	await page.goto(`${server.url}#file=3`);
	await checkIterationTable(an, 'run directory');
	const n = await page.locator('[data-testid=nsys-warnings] li').count();
	assert.equal(n, an.warnings.length);
});
