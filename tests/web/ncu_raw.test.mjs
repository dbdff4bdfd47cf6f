// Tests of the Nsight Compute page's "Raw metrics" tab (web/ncu_raw.js) on
// tests/golden/_inputs/full.ncu-rep (tests/ncu/mkfull.py): every metric of
// the selected kernel against `gpuprof ncu raw --id N --format json` (auto
// and base units), the counts mkfull.py writes, search, sort, the units
// toggle (the request and the values), the kernel switch, the state in
// the hash and the CSV. Screenshot ncu-raw. On the T4 report of
// ../shared/data/ncu (skipped when absent): 1,116 rows, a virtual table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, gpuprof, startServer, launchBrowser, newPage, shot, onApi } from './harness.mjs';

const full = path.join(root, 'tests/golden/_inputs/full.ncu-rep');
const t4 = path.join(root, '../shared/data/ncu/ncu2024.2_t4_full_mlp.ncu-rep');
// the JSON's rows with their description (metric_descriptions) and ncu's
// text as the value, as the page shows them
const raw = (id, units, rep = full) => {
	const d = JSON.parse(execFileSync(gpuprof, ['ncu', 'raw', '--id', String(id), '--print-units', units, '--format', 'json', rep], { encoding: 'utf8', maxBuffer: 1 << 28 }));
	const desc = new Map(d.metric_descriptions.map((r) => [r.metric, r.description]));
	assert.ok(d.metrics.every((r) => r.id === id) && d.launches.length === 1 && d.launches[0].id === id);
	return d.metrics.map((r) => ({ metric: r.metric, unit: r.unit, value: r.text, instances: r.instances, description: desc.get(r.metric) ?? null }));
};
// a row as the table shows it (table.js: fmt: null '-', numbers as integers)
const shown = (r) => [r.metric, r.unit, r.value, String(r.instances), r.description ?? '-'];

let browser, page, srv;
before(async () => { browser = await launchBrowser(); page = await newPage(browser); srv = await startServer([full]); });
after(async () => { await srv?.stop(); await browser?.close(); });

const cells = (loc) => loc.evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('the Raw metrics tab lists every metric of the kernel as `ncu raw` does, searchable, sortable, in both units', async () => {
	const requests = [];
	onApi(page, (r) => { if (r.url().includes('/ncu/raw?')) requests.push(new URL(r.url()).search); });
	await page.goto(`${srv.url}#file=1&view=ncu&kernel=0`);
	await page.getByTestId('ncu-raw-tab').click();
	const table = page.getByTestId('table-ncu-raw');
	await table.locator('tbody tr').first().waitFor();
	assert.match(await page.evaluate(() => location.hash), /tab=raw/);
	assert.equal(await page.getByTestId('ncu-raw-tab').getAttribute('class'), 'active');
	assert.equal(await page.locator('[data-testid=ncu-section-tab].active').count(), 0);
	assert.deepEqual(requests, ['?id=0&print_units=auto']);

	// every row, in the CLI's order (auto units, the default)
	const auto = raw(0, 'auto');
	assert.equal(auto.length, 93); // the 95 metrics mkfull.py writes for sgemm_tile, less its 2 breakdown: lists
	assert.equal(await table.getAttribute('data-rows'), '93');
	assert.equal(await page.getByTestId('count-ncu-raw').textContent(), '93 rows');
	assert.deepEqual(await table.locator('thead th').allTextContents(), ['Metric', 'Unit', 'Value', 'Instances', 'Description']);
	assert.deepEqual(await cells(table.locator('tbody tr')), auto.map(shown));
	// a few rows by hand (mkfull.py: 200 GB/s, 80 us, 100 KiB carveout, 256 curve points)
	const row = async (m) => (await cells(table.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${m.replace(/\./g, '\\.')}$`) }) })))[0];
	assert.deepEqual((await row('dram__bytes.sum.per_second')).slice(0, 3), ['dram__bytes.sum.per_second', 'Gbyte/s', '200']);
	assert.deepEqual((await row('gpu__time_duration.sum')).slice(0, 3), ['gpu__time_duration.sum', 'us', '80']);
	assert.deepEqual((await row('launch__shared_mem_config_size')).slice(0, 3), ['launch__shared_mem_config_size', 'Kbyte', '102.40']);
	assert.deepEqual((await row('launch__occupancy_per_register_count')).slice(2, 4), ['4,968', '256']);

	// search narrows (metric, unit, value and description text)
	await page.getByTestId('search-ncu-raw').fill('dram__');
	const want = auto.filter((r) => [r.metric, r.unit, r.value, r.description].some((v) => typeof v === 'string' && v.toLowerCase().includes('dram__')));
	assert.equal(want.length, 5); // dram__bytes.sum(.per_second, .peak_sustained), dram__cycles_active, dram__cycles_elapsed
	assert.equal(await page.getByTestId('count-ncu-raw').textContent(), '5 of 93 rows');
	assert.deepEqual(await cells(table.locator('tbody tr')), want.map(shown));
	assert.match(await page.evaluate(() => location.hash), /rq=dram__/);

	// sort by value: ncu's text compares as the number it prints ("4,968" >
	// "80" > "6"), before the text values ("Full GPU"); no value last
	await page.getByTestId('search-ncu-raw').fill('');
	await table.locator('th[data-key=value]').click(); // text column: ascending first
	const cls = (v) => (v === null || v === 'n/a' || v === '' ? 2 : Number.isFinite(Number(String(v).replace(/,/g, ''))) ? 0 : 1);
	const num = (v) => Number(String(v).replace(/,/g, ''));
	const byValue = auto.map((r, i) => [r, i]).sort((a, b) => {
		const x = a[0].value, y = b[0].value, cx = cls(x), cy = cls(y);
		if (cx !== cy) return cx - cy;
		if (cx === 0) return num(x) - num(y) || a[1] - b[1];
		if (cx === 1) return x.localeCompare(y) || a[1] - b[1];
		return a[1] - b[1];
	}).map((p) => shown(p[0]));
	assert.equal(auto.filter((r) => cls(r.value) === 1).length, 1); // device__attribute_display_name: "Full GPU"
	assert.deepEqual(await cells(table.locator('tbody tr')), byValue);
	const last = byValue.filter((r) => r[2] !== '-' && r[2] !== 'n/a').at(-1);
	assert.equal(last[2], 'Full GPU');
	await page.getByTestId('search-ncu-raw').fill('dram__');

	// sort by instances: the register-count curve (256 points) first
	await table.locator('th[data-key=instances]').click();
	await page.getByTestId('search-ncu-raw').fill('');
	assert.equal((await cells(table.locator('tbody tr').first()))[0][0], 'launch__occupancy_per_register_count');
	assert.match(await page.evaluate(() => location.hash), /rsort=instances/);
	assert.match(await page.evaluate(() => location.hash), /rdir=desc/);
	await page.getByTestId('search-ncu-raw').fill('dram__');

	// units toggle: base units asked for and shown, search and sort kept
	await page.getByTestId('ncu-raw-units').selectOption('base');
	await page.locator('[data-testid=ncu-raw][data-units=base]').waitFor();
	assert.deepEqual(requests, ['?id=0&print_units=auto', '?id=0&print_units=base']);
	assert.match(await page.evaluate(() => location.hash), /units=base/);
	const base = raw(0, 'base');
	const wantBase = base.filter((r) => [r.metric, r.unit, r.value, r.description].some((v) => typeof v === 'string' && v.toLowerCase().includes('dram__')))
		.sort((a, b) => b.instances - a.instances);
	assert.equal(await page.getByTestId('search-ncu-raw').inputValue(), 'dram__');
	assert.deepEqual(await cells(table.locator('tbody tr')), wantBase.map(shown));
	assert.deepEqual((await row('dram__bytes.sum.per_second')).slice(0, 3), ['dram__bytes.sum.per_second', 'byte/s', '200,000,000,000']);
	assert.notDeepEqual(base.map((r) => r.value), auto.map((r) => r.value));

	// CSV: the shown (searched) rows, the table's columns
	const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-ncu-raw').click()]);
	assert.equal(dl.suggestedFilename(), 'ncu-raw.csv');
	const csv = readFileSync(await dl.path(), 'utf8').trimEnd().split('\n');
	assert.equal(csv[0], 'metric,unit,value,instances,description');
	assert.equal(csv.length, 1 + wantBase.length);
	assert.equal(csv.find((l) => l.startsWith('dram__bytes.sum.per_second,')), 'dram__bytes.sum.per_second,byte/s,"200,000,000,000",0,"Device memory (DRAM) traffic in bytes per second, reads and writes together."'); // src/ncu/describe.c
	await shot(page, 'ncu-raw');

	// another kernel: the tab stays, with that kernel's metrics
	await page.getByTestId('search-ncu-raw').fill('');
	await page.locator('[data-testid=ncu-kernel][data-id="1"]').click();
	await page.locator('[data-testid=ncu-raw][data-kernel="1"]').waitFor();
	assert.equal(requests.at(-1), '?id=1&print_units=base');
	const k1 = raw(1, 'base');
	assert.equal(k1.length, 83); // relu_kernel: 85 metrics, 2 breakdown: lists
	assert.equal(await page.getByTestId('table-ncu-raw').getAttribute('data-rows'), '83');

	// a section tab leaves the raw tab
	await page.locator('[data-testid=ncu-section-tab][data-name=Occupancy]').click();
	await page.locator('[data-testid=ncu-section-tab].active').waitFor();
	assert.doesNotMatch(await page.evaluate(() => location.hash), /tab=raw/);
	assert.equal(await page.getByTestId('table-ncu-raw').count(), 0);
});

test('a real report\'s raw metrics: a virtual table with every row reachable', { skip: existsSync(t4) ? false : 'no ../shared T4 report' }, async () => {
	const s = await startServer([t4]);
	try {
		const want = raw(0, 'auto', t4);
		assert.equal(want.length, 1116);
		await page.goto(`${s.url}#file=1&view=ncu&kernel=0&tab=raw`);
		const table = page.getByTestId('table-ncu-raw');
		await table.locator('tbody tr:not(.vpad)').first().waitFor();
		assert.equal(await table.getAttribute('data-rows'), '1116');
		assert.equal(await page.locator('[data-table=ncu-raw] .table-wrap.virtual').count(), 1);
		assert.ok(await table.locator('tbody tr:not(.vpad)').count() < 200); // only the rows in view
		assert.deepEqual((await cells(table.locator('tbody tr:not(.vpad)').first()))[0], shown(want[0]));
		// the last row, scrolled to
		await page.locator('[data-table=ncu-raw] .table-wrap').evaluate((w) => { w.scrollTop = w.scrollHeight; });
		await table.locator('tbody tr[data-pos="1115"]').waitFor();
		assert.deepEqual((await cells(table.locator('tbody tr[data-pos="1115"]')))[0], shown(want[1115]));
	} finally {
		await s.stop();
	}
});
