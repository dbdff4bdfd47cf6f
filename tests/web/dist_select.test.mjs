// Browser tests of the Distributed page's step/range selection and worker
// names: `gpuprof serve` with tests/golden/_inputs/twostep_{0,1}.pt.trace.json
// (steps 1 and 2 each; see tests/golden/README.md), checked against
// `gpuprof dist [--step ...|--range ...] [--names ...]` on the same files:
// choosing a step in the header selector sends step= and shows the CLI's
// tables cell for cell (and bars from its averages), names= renames the
// workers in the tables and the charts, a reload keeps both, a span of
// steps and a range, the server's messages (names that do not fit, a
// worker without the step), clearing the selection. Run by run.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, cliJson, cliText, startServer, launchBrowser, newPage, shot, fresh, retry, waitForApi } from './harness.mjs';
import { textTables, cells, assertTables } from './dist_tables.mjs';

const inputs = path.join(root, 'tests/golden/_inputs');
const a = path.join(inputs, 'twostep_0.pt.trace.json');
const b = path.join(inputs, 'twostep_1.pt.trace.json');
const one = path.join(inputs, 'node0_1.pt.trace.json'); // step 1 only

const cli = (...args) => textTables(cliText('dist', ...args, a, b));

let browser, page;

before(async () => {
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
});

const until = retry;

// the overlap chart: per group its worker and its rects' data-value
const chart = () => page.getByTestId('dist-overlap-chart').locator('g').evaluateAll((gs) => gs.map((g) => ({
	worker: g.dataset.worker,
	values: [...g.querySelectorAll('rect')].map((r) => +r.dataset.value),
})));
const OVERLAP = ['computation_ns', 'overlap_ns', 'communication_ns', 'other_ns'];
const avgBars = (d) => d.overlap_average.map((r) => ({ worker: r.worker, values: OVERLAP.map((k) => r[k]) }));
const hash = () => page.evaluate(() => decodeURIComponent(location.hash));

test('the Distributed page follows the step selection and takes worker names', async () => {
	const server = await startServer([a, b]);
	try {
		await fresh(page, `${server.url}#file=1&view=dist`);
		await page.getByTestId('dist-overlap-chart').waitFor();
		const whole = cli();
		await assertTables(page, whole);
		assert.equal(await page.locator('[data-testid=dist-selection]').count(), 0);

		// step 2 in the header's selector: the request carries it, the tables
		// are `gpuprof dist --step 2`'s (not the whole traces')
		const step2 = cli('--step', '2');
		assert.notDeepEqual(step2.overlap, whole.overlap);
		// by hand (tests/golden/README.md): r0 step 2 is 70/0/60/70 µs
		assert.deepEqual(step2.overlap[0], ['twostep_0', '2', '70.000 us', '0 ns', '60.000 us', '70.000 us']);
		let req = waitForApi(page, (r) => r.url().includes('/api/dist?'));
		await page.getByTestId('step-select').selectOption('2');
		assert.match((await req).url(), /\/api\/dist\?files=1,2&step=2$/);
		await until(() => assertTables(page, step2));
		assert.deepEqual(await chart(), avgBars(cliJson('dist', '--step', '2', a, b)));
		assert.match(await page.getByTestId('dist-selection').textContent(), /^Step 2 of every worker/);
		assert.equal(await page.getByTestId('sel-chip').locator('span').textContent(), 'Step 2');

		// worker names: in the request, the tables and the charts
		req = waitForApi(page, (r) => r.url().includes('names='));
		await page.getByTestId('worker-names').fill('alpha,beta');
		await page.getByTestId('worker-names').press('Enter');
		assert.match((await req).url(), /\/api\/dist\?files=1,2&step=2&names=alpha,beta$/);
		const named = cli('--step', '2', '--names', 'alpha,beta');
		await until(() => assertTables(page, named));
		assert.deepEqual((await cells(page, 'workers')).map((c) => c[0]), ['alpha', 'beta']);
		assert.deepEqual(await chart(), avgBars(cliJson('dist', '--step', '2', '--names', 'alpha,beta', a, b)));
		assert.deepEqual(await page.getByTestId('dist-wait-chart').locator('g').evaluateAll((gs) => gs.map((g) => g.dataset.worker)), ['alpha', 'beta']);
		assert.match(await hash(), /step=2/);
		assert.match(await hash(), /names=alpha,beta/);
		await shot(page, 'dist-select');

		// a reload keeps both
		await page.reload();
		await until(async () => assert.equal(await page.getByTestId('worker-names').inputValue(), 'alpha,beta'));
		await until(() => assertTables(page, named));
		assert.equal(await page.getByTestId('step-select').inputValue(), '2');
		assert.match(await page.getByTestId('dist-selection').textContent(), /^Step 2 of every worker/);

		// steps 1–2 (the span's default: the first and last step)
		req = waitForApi(page, (r) => r.url().includes('step=1-2'));
		await page.getByTestId('step-select').selectOption('A-B');
		assert.match((await req).url(), /step=1-2&names=alpha,beta$/);
		await until(() => assertTables(page, cli('--step', '1-2', '--names', 'alpha,beta')));
		assert.match(await page.getByTestId('dist-selection').textContent(), /^Steps 1–2 of every worker/);

		// names that do not fit the ticked traces: the CLI's message
		await page.getByTestId('worker-names').fill('alpha');
		await page.getByTestId('worker-names').press('Enter');
		await until(async () => assert.equal(await page.getByTestId('dist-error').textContent(), '--names needs one name per TRACE (2)'));
		await page.getByTestId('worker-names').fill('');
		await page.getByTestId('worker-names').press('Enter');
		await until(() => assertTables(page, cli('--step', '1-2')));
		assert.doesNotMatch(await hash(), /names=/);

		// a range: each worker's first nccl:all_reduce
		req = waitForApi(page, (r) => r.url().includes('range='));
		await page.getByTestId('range-input').fill('nccl:all_reduce');
		await page.getByTestId('range-input').press('Enter');
		assert.match((await req).url(), /\/api\/dist\?files=1,2&range=nccl%3Aall_reduce$/);
		await until(() => assertTables(page, cli('--range', 'nccl:all_reduce')));
		assert.match(await page.getByTestId('dist-selection').textContent(), /^Range nccl:all_reduce of every worker/);

		// a worker without the step, uploaded with the page's Open: the
		// CLI's message naming its file
		await page.getByTestId('upload').setInputFiles({ name: 'node0_1.pt.trace.json', mimeType: 'application/json', buffer: readFileSync(one) });
		await until(async () => assert.equal(await page.getByTestId('file-select').inputValue(), '3'));
		await page.goto(`${server.url}#file=1&view=dist&step=2`);
		await until(async () => assert.equal(await page.getByTestId('dist-error').textContent(),
			'node0_1.pt.trace.json: --step: no step 2 (steps 1 to 1)'));
		// step 1 exists in all three: the CLI's tables on the three (an
		// upload's file is its name)
		const three = (...args) => {
			const t = textTables(cliText('dist', ...args, a, b, one));
			assert.equal(t.workers[2][1], one);
			t.workers[2][1] = 'node0_1.pt.trace.json';
			return t;
		};
		await page.getByTestId('step-select').selectOption('1');
		await until(() => assertTables(page, three('--step', '1')));

		// clearing the selection: the whole traces again
		await page.getByTestId('sel-clear').click();
		await until(() => assertTables(page, three()));
		assert.equal(await page.locator('[data-testid=dist-selection]').count(), 0);
	} finally {
		await server.stop();
	}
});
