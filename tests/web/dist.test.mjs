// Browser tests of the Distributed page: `gpuprof serve` with the two ranks
// of tests/golden/_inputs (node0_0, node0_1), checked against `gpuprof dist`
// on the same files: the bars (one group per worker, widths proportional to
// the CLI's average-step numbers), every table cell as the CLI's text table
// prints it, sorting, the tb_compat toggle, the worker picker (unticking a
// worker changes the request and the tables), and the messages of a
// one-trace server and of a view that does not exist. Run by run.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, cliJson, cliText, startServer, launchBrowser, newPage, shot, retry, waitForApi, openedAs } from './harness.mjs';
import { textTables, cells, assertTables } from './dist_tables.mjs';

const inputs = path.join(root, 'tests/golden/_inputs');
const r0 = path.join(inputs, 'node0_0.pt.trace.json');
const r1 = path.join(inputs, 'node0_1.pt.trace.json');
const full = path.join(inputs, 'full.json');

let browser, page;

before(async () => {
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
});

const until = retry;

async function bars(testid) {
	return page.getByTestId(testid).locator('g').evaluateAll((gs) => gs.map((g) => ({
		worker: g.dataset.worker,
		rects: [...g.querySelectorAll('rect')].map((r) => ({ part: r.dataset.part, width: +r.getAttribute('width') })),
	})));
}

// one group per average row, its parts in order, widths = k × value with one k
function assertBars(got, rows, parts) {
	assert.deepEqual(got.map((g) => g.worker), rows.map((r) => r.worker));
	const k = Math.max(...got.flatMap((g, i) => g.rects.map((x, j) => x.width / Math.max(1, rows[i][parts[j]]))));
	assert.ok(k > 0);
	got.forEach((g, i) => {
		assert.deepEqual(g.rects.map((x) => x.part), parts);
		g.rects.forEach((x, j) => {
			const want = k * rows[i][parts[j]];
			assert.ok(Math.abs(x.width - want) <= 1e-9 * Math.max(1, want), `${g.worker} ${parts[j]}: width ${x.width}, want ${want}`);
		});
	});
	// the longest bar is the whole chart width
	const totals = got.map((g) => g.rects.reduce((s, x) => s + x.width, 0));
	assert.ok(Math.abs(Math.max(...totals) - 800) < 1e-6);
}

const OVERLAP = ['computation_ns', 'overlap_ns', 'communication_ns', 'other_ns'];
const WAIT = ['data_transfer_ns', 'synchronizing_ns'];

test('the distributed view of two ranks, against gpuprof dist', async () => {
	const server = await startServer([r0, r1]);
	try {
		const want = cliJson('dist', r0, r1);
		await page.goto(`${server.url}#view=ops`);
		await page.getByTestId('table-operators').waitFor();
		await page.keyboard.press('7');
		await page.getByTestId('dist-overlap-chart').waitFor();
		assert.match(await page.evaluate(() => location.hash), /view=dist/);
		assert.equal(await page.locator('#tabs a.active').textContent(), 'Distributed');
		assert.equal(want.overlap_average.length, 2);
		assert.ok(want.overlap.every((r) => r.step !== 'average'));
		assertBars(await bars('dist-overlap-chart'), want.overlap_average, OVERLAP);
		assertBars(await bars('dist-wait-chart'), want.waittime_average, WAIT);
		await assertTables(page, textTables(cliText('dist', r0, r1)));
		// the picker: both traces ticked
		assert.equal(await page.getByTestId('worker-1').isChecked(), true);
		assert.equal(await page.getByTestId('worker-2').isChecked(), true);
		await shot(page, 'dist');

		// sorting a column: descending, ties in the server's order
		const ct = page.getByTestId('table-dist-commops');
		await ct.locator('th[data-key=latency_ns]').click();
		const byLatency = want.commops.map((r, i) => [r, i]).sort((a, b) => b[0].latency_ns - a[0].latency_ns || a[1] - b[1])
			.map(([r]) => [r.worker, r.name]);
		const shown = (await cells(page, 'commops')).map((c) => [c[0], c[1]]);
		assert.deepEqual(shown, byLatency);
		assert.notDeepEqual(byLatency, want.commops.map((r) => [r.worker, r.name]));
		assert.match(await page.evaluate(() => location.hash), /table=dist-commops.*sort=latency_ns/);

		// the commops worker selector: one worker's rows
		await page.getByTestId('commops-worker').selectOption('node0_1');
		await until(async () => assert.deepEqual((await cells(page, 'commops')).map((c) => c[0]),
			want.commops.filter((r) => r.worker === 'node0_1').map(() => 'node0_1')));
		assert.match(await page.evaluate(() => location.hash), /cw=node0_1/);
		await page.getByTestId('commops-worker').selectOption('');
		await until(async () => assert.equal((await cells(page, 'commops')).length, want.commops.length));

		// tb_compat: the request says so, and the page shows --tb-compat's numbers
		const req = waitForApi(page, (r) => r.url().includes('/api/dist?') && r.url().includes('tb_compat=1'));
		await page.getByTestId('tb-compat').check();
		assert.match((await req).url(), /\/api\/dist\?files=1,2&tb_compat=1$/);
		const compat = textTables(cliText('dist', '--tb-compat', r0, r1));
		assert.notDeepEqual(compat.overlap, textTables(cliText('dist', r0, r1)).overlap);
		await until(() => assertTables(page, compat));
		const wantc = cliJson('dist', '--tb-compat', r0, r1);
		assertBars(await bars('dist-overlap-chart'), wantc.overlap_average, OVERLAP);

		// a third worker, uploaded with the page's Open: named by its name
		await page.getByTestId('upload').setInputFiles({ name: 'node0_2.pt.trace.json', mimeType: 'application/json', buffer: readFileSync(r0) });
		await until(async () => assert.equal(await page.getByTestId('file-select').inputValue(), '3'));
		await page.goto(`${server.url}#view=dist`);
		await until(async () => assert.deepEqual((await bars('dist-overlap-chart')).map((g) => g.worker), ['node0_0', 'node0_1', 'node0_2']));
		const w3 = await cells(page, 'workers');
		assert.deepEqual(w3.map((c) => [c[0], c[1]]), [['node0_0', openedAs(r0)], ['node0_1', openedAs(r1)], ['node0_2', 'node0_2.pt.trace.json']]);
		// unticking it asks for files 1 and 2, and the tables are the CLI's on those
		const req2 = waitForApi(page, (r) => r.url().includes('/api/dist?'));
		await page.getByTestId('worker-3').uncheck();
		assert.match((await req2).url(), /\/api\/dist\?files=1,2$/);
		await until(() => assertTables(page, textTables(cliText('dist', r0, r1))));
		assert.match(await page.evaluate(() => location.hash), /workers=1%2C2|workers=1,2/);
		assert.equal(await page.getByTestId('worker-3').isChecked(), false);
		// fewer than two ticked: a message, no request
		await page.getByTestId('worker-2').uncheck();
		await until(async () => assert.match(await page.getByTestId('dist-message').textContent(), /tick at least two/));
	} finally {
		await server.stop();
	}
});

test('one trace: the page says why there is no view and how to get one', async () => {
	const server = await startServer([r0]);
	try {
		await page.goto(`${server.url}#view=dist`);
		const msg = page.getByTestId('dist-message');
		await msg.waitFor();
		const text = await msg.textContent();
		assert.match(text, /only one PyTorch trace is loaded/);
		assert.match(text, /gpuprof serve rank0\.json rank1\.json/);
		assert.match(text, /Open trace/);
		assert.equal(await page.locator('[data-testid=dist-overlap-chart]').count(), 0);
		await shot(page, 'dist-one-trace');
	} finally {
		await server.stop();
	}
});

test('a second worker whose collectives do not match: no --tb-compat view, and the CLI\'s reason', async () => {
	const server = await startServer([r0, full]);
	try {
		const want = cliJson('dist', '--tb-compat', r0, full).distributed;
		assert.equal(want.view, false);
		await page.goto(`${server.url}#view=dist&tb=1`);
		await page.reload();
		await until(async () => assert.equal(await page.getByTestId('dist-message').textContent(),
			`No distributed view (tb-compat mode): ${want.reason}. Untick tb_compat for gpuprof’s own matching of the collective calls.`));
		assert.deepEqual((await cells(page, 'workers')).map((c) => c[0]), ['node0_0', 'full']);
	} finally {
		await server.stop();
	}
});
