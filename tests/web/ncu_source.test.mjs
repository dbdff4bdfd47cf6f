// Tests of the Source tab of the Nsight Compute page (web/ncu_source.js):
// on the real report with source counters, every address's counters
// against the source CSV NVIDIA's ncu exported from it (`--page source
// --print-source sass --csv`), hottest first; a report without them has
// no Source tab. Skipped when ../shared is absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, newPage, shot, fresh } from './harness.mjs';
import { csvFile, dataDir, full } from './ncu_csv.mjs';
import { sourceRows } from '../../web/ncu_source.js';

const rep = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep');
const sassCsv = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.source_sass.csv');

test('source rows by hand: one per address, the most executed first, ties by address', () => {
	// body rows as `ncu body --metric` writes them: a metric's row, then its instances (x = address)
	const inst = (metric, x, value) => ({ metric, instance: 0, x, value, section: null });
	const body = [
		{ metric: 'inst_executed', instance: null, x: null, value: 17, section: null },
		inst('inst_executed', 0x100, 2), inst('inst_executed', 0x110, 10), inst('inst_executed', 0x120, 5), inst('inst_executed', 0x090, 5),
		inst('thread_inst_executed', 0x110, 320), inst('thread_inst_executed', 0x100, 64),
		inst('thread_inst_executed_true', 0x110, 300),
		inst('launch__grid_size', 0, 4), // not a source counter
	];
	assert.deepEqual(sourceRows(body), [
		{ address: '0x110', inst_executed: 10, thread_inst_executed: 320, thread_inst_executed_pred_on: 300 },
		{ address: '0x90', inst_executed: 5, thread_inst_executed: null, thread_inst_executed_pred_on: null },
		{ address: '0x120', inst_executed: 5, thread_inst_executed: null, thread_inst_executed_pred_on: null },
		{ address: '0x100', inst_executed: 2, thread_inst_executed: 64, thread_inst_executed_pred_on: null },
	]);
});

let browser, page;
before(async () => { browser = await launchBrowser(); page = await newPage(browser); });
after(async () => { await browser?.close(); });

const rowsOf = (p) => p.getByTestId('table-ncu-source').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('the Source tab: every SASS address with ncu\'s own counters, the most executed first', { skip: existsSync(rep) && existsSync(sassCsv) ? false : 'no source-counter report' }, async () => {
	// line 1 names the kernel, line 2 the columns, then one row per address
	const csv = csvFile(sassCsv).slice(1).filter((r) => r.length > 1);
	const h = csv[0];
	const col = (name) => h.indexOf(name);
	const want = csv.slice(1).map((r) => [r[col('Address')], Number(r[col('Instructions Executed')]), Number(r[col('Thread Instructions Executed')]),
		Number(r[col('Predicated-On Thread Instructions Executed')])]);
	// ncu lists 32 instructions; the report holds counters for the first 18
	// (the kernel up to its EXIT; the 14 after it are padding, all zero)
	assert.equal(want.length, 32);
	assert.ok(want.slice(18).every((r) => r[1] === 0 && r[2] === 0 && r[3] === 0));
	want.length = 18;
	// hottest first, ties by address (the addresses are fixed-width hex)
	want.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const srv = await startServer([rep]);
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0`);
		await page.getByTestId('ncu-source-tab').click();
		await page.getByTestId('table-ncu-source').locator('tbody tr').first().waitFor();
		assert.match(await page.evaluate(() => location.hash), /tab=source/);
		const got = await rowsOf(page);
		assert.deepEqual(got.map((r) => [r[0], Number(r[1].replace(/,/g, '')), Number(r[2].replace(/,/g, '')), Number(r[3].replace(/,/g, ''))]), want);
		await shot(page, 'ncu-source');
	} finally {
		await srv.stop();
	}
});

test('a report without source counters has no Source tab', async () => {
	const srv = await startServer([full]);
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0`);
		await page.getByTestId('ncu-summary-card').first().waitFor();
		assert.equal(await page.getByTestId('ncu-source-tab').count(), 0);
		// asked for all the same: said, not an empty table
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0&tab=source`);
		await page.getByTestId('ncu-source-empty').waitFor();
	} finally {
		await srv.stop();
	}
});
