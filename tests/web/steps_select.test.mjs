// Browser tests of the step and range selection (web/stepsel.js): on
// examples/resnet_like.json.gz (steps 3 to 8), choosing step 3 in the
// header's selector turns the Overview cards and the Operators table into
// `gpuprof summary/ops --step 3`'s numbers (cell for cell as the page
// formats them, and the average step time as the CLI's text prints it);
// the hash keeps the selection over a reload and across the tabs; the Steps
// page lists every step, marks the selected one and selects a step by a
// click on its bar or row; a range of steps and --range NAME ask the server
// for `--step A-B` / `--range NAME`; clearing restores the whole trace's
// numbers. Screenshot: step-select.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, cliJson, cliText, startServer, launchBrowser, newPage, shot, retry, opsAsShown } from './harness.mjs';

const fixture = path.join(root, 'examples/resnet_like.json.gz');
const cli = (...args) => cliJson(...args, fixture);
const ann = 'DistributedDataParallel.forward';
let server, browser, page, fmt;

before(async () => {
	({ fmt } = await import('../../web/fmt.js'));
	server = await startServer([fixture]);
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
});

const until = retry;

const hash = () => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));

// the Overview cards as the page shows them, and as they must be for the
// summary JSON want (and the text table's average step time, text)
async function cards() {
	const ids = ['card-steps', 'card-avg-step', 'card-window', 'card-device', 'card-tc'];
	return Promise.all(ids.map((id) => page.getByTestId(id).textContent()));
}
function wantCards(want, text) {
	const ov = want.overview;
	const avg = text.match(/Average step time:\s+(.+)/)[1].trim();
	assert.equal(fmt('avg_step_ns', ov.avg_step_ns), avg); // the page's format is the CLI's
	return [String(ov.steps), avg, fmt('window_ns', ov.window_ns), ov.device_type, fmt('tc_eligible_pct', ov.tc_eligible_pct)];
}
async function checkOverview(args) {
	const want = wantCards(cli('summary', ...args), cliText('summary', ...args, fixture));
	await until(async () => assert.deepEqual(await cards(), want));
	return want;
}
// table testid, every cell, against the CLI's rows want (as the page formats them)
async function checkTable(testid, want) {
	const table = page.getByTestId(testid);
	const cols = Object.keys(want[0]);
	await until(async () => {
		assert.deepEqual(await table.locator('th').evaluateAll((ths) => ths.map((t) => t.dataset.key)), cols);
		const cells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
		assert.deepEqual(cells, want.map((r) => cols.map((c) => fmt(c, r[c]))));
	});
	return want;
}
// the Operators table against `gpuprof ops ARGS`
const checkOps = (args) => checkTable('table-operators', opsAsShown(cli('ops', ...args)));

test('step 3 in the selector: the Overview and Operators are `--step 3`', async () => {
	await page.goto(`${server.url}#file=1&view=overview`);
	await page.getByTestId('card-steps').waitFor();
	const whole = await checkOverview([]);
	const sel = page.getByTestId('step-select');
	// every step of `gpuprof steps`, after "All steps", before the range choice
	const steps = cli('steps').steps.filter((r) => r.step !== 'average').map((r) => r.step);
	assert.deepEqual(steps, ['3', '4', '5', '6', '7', '8']);
	assert.deepEqual(await sel.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['', ...steps, 'A-B']);
	assert.equal(await page.getByTestId('sel-chip').count(), 0);
	await sel.selectOption('3');
	const step3 = await checkOverview(['--step', '3']);
	assert.notDeepEqual(step3, whole);
	assert.equal(step3[0], '1');
	assert.equal((await hash()).step, '3');
	assert.equal(await page.getByTestId('sel-chip').locator('span').textContent(), 'Step 3');
	// the tabs keep the selection: Operators
	await page.locator('#tabs a[data-view=ops]').click();
	await page.getByTestId('table-operators').waitFor();
	const ops3 = await checkOps(['--step', '3']);
	assert.notDeepEqual(ops3.map((r) => r.calls), cli('ops').operators.map((r) => r.calls));
	assert.equal((await hash()).step, '3');
	await shot(page, 'step-select');
	// a reload keeps it
	await page.reload();
	await page.getByTestId('table-operators').waitFor();
	await checkOps(['--step', '3']);
	assert.equal(await page.getByTestId('step-select').inputValue(), '3');
	assert.equal(await page.getByTestId('sel-chip').locator('span').textContent(), 'Step 3');
	// the Memory page asks for the step's memory: its tables are `memory --step 3`'s
	await page.locator('#tabs a[data-view=memory]').click();
	const mem3 = cli('memory', '--step', '3').operators;
	assert.notDeepEqual(mem3, cli('memory').operators);
	await checkTable('table-memory', mem3);
	// the key 1 (Overview) keeps it too
	await page.locator('h1').click();
	await page.keyboard.press('1');
	await page.getByTestId('card-steps').waitFor();
	await checkOverview(['--step', '3']);
});

test('the Steps page marks the selected step; a click on a bar or a row selects one', async () => {
	await page.goto(`${server.url}#file=1&view=steps&step=3`);
	const chart = page.getByTestId('steps-chart');
	await chart.waitFor();
	const want = cli('steps').steps;
	// every step stays listed (the whole trace's rows), step 3 marked
	await until(async () => assert.equal(await page.getByTestId('table-steps').locator('tbody tr').count(), want.length));
	assert.deepEqual(await chart.locator('g.sel').evaluateAll((gs) => gs.map((g) => g.dataset.step)), ['3']);
	assert.deepEqual(await page.getByTestId('table-steps').locator('tbody tr.selected td:first-child').allTextContents(), ['3']);
	// a click on step 5's bar
	await chart.locator('g[data-step="5"] rect').first().click();
	await until(async () => assert.equal((await hash()).step, '5'));
	await until(async () => assert.deepEqual(await page.getByTestId('steps-chart').locator('g.sel').evaluateAll((gs) => gs.map((g) => g.dataset.step)), ['5']));
	assert.equal(await page.getByTestId('sel-chip').locator('span').textContent(), 'Step 5');
	assert.equal(await page.getByTestId('step-select').inputValue(), '5');
	// a click on step 7's row
	await page.getByTestId('table-steps').locator('tbody tr', { hasText: /^7/ }).first().click();
	await until(async () => assert.equal((await hash()).step, '7'));
	await page.locator('#tabs a[data-view=overview]').click();
	await checkOverview(['--step', '7']);
});

test('a range of steps, --range NAME, and clearing', async () => {
	await page.goto(`${server.url}#file=1&view=ops`);
	await page.getByTestId('table-operators').waitFor();
	const whole = await checkOps([]);
	// Steps A-B: from 4 to 6
	await page.getByTestId('step-select').selectOption('A-B');
	await page.getByTestId('step-from').selectOption('4');
	await page.getByTestId('step-to').selectOption('6');
	await until(async () => assert.equal((await hash()).step, '4-6'));
	await checkOps(['--step', '4-6']);
	assert.equal(await page.getByTestId('sel-chip').locator('span').textContent(), 'Steps 4–6');
	// --range NAME (offered from the trace's user annotations)
	const offered = await page.locator('#stepsel datalist option').evaluateAll((os) => os.map((o) => o.value));
	assert.ok(offered.includes(ann), offered.join(', '));
	await page.getByTestId('range-input').fill(ann);
	await page.getByTestId('range-input').press('Enter');
	await until(async () => assert.deepEqual([(await hash()).range, (await hash()).step], [ann, undefined]));
	await checkOps(['--range', ann]);
	assert.equal(await page.getByTestId('sel-chip').locator('span').textContent(), `Range ${ann}`);
	// an unknown name: the CLI's message in the page
	await page.getByTestId('range-input').fill('no such range');
	await page.getByTestId('range-input').press('Enter');
	await until(async () => assert.match(await page.locator('#view').textContent(), /--range: no user annotation named 'no such range'/));
	// clearing: the whole trace again
	await page.getByTestId('sel-clear').click();
	await until(async () => assert.deepEqual([(await hash()).range, (await hash()).step], [undefined, undefined]));
	await checkOps([]);
	assert.deepEqual((await checkOps([])).length, whole.length);
	assert.equal(await page.getByTestId('sel-chip').count(), 0);
	await page.locator('#tabs a[data-view=overview]').click();
	await checkOverview([]);
});
