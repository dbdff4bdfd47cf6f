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

const rep = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep');
const sassCsv = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.source_sass.csv');

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
