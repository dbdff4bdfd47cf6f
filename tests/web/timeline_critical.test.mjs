// Browser test of the critical path on the Timeline (web/timeline_critical.js)
// and on the GPU waits page, on tests/hta/fixtures/critpath-sync.json, whose
// path is worked by hand in tests/golden/README.md (critical-path-sync):
// gemm_a (70 us) -> gap 5 us -> gemm_b (75 us) -> sync -> cudaDeviceSynchronize
// end -> aten::add (4 us): 6 edges over 4 events, 154 us. critical=0 outlines
// those 4 slices (and only those) and draws the 6 edges; the button turns it
// off (the hash loses critical) and on again. Screenshot: timeline-critical.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, startServer, launchBrowser, newPage, retry, shot } from './harness.mjs';

const fixture = path.join(root, 'tests/hta/fixtures/critpath-sync.json');
const cpu = path.join(root, 'tests/hta/fixtures/critpath-cpu.json');
let server, browser, page;

before(async () => {
	server = await startServer([fixture, cpu]);
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
});

const canvas = () => page.getByTestId('timeline-canvas');
const attr = (name) => canvas().getAttribute(name);
const hash = async () => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));

test('critical=0 outlines the path of the step and draws its edges (by hand)', async () => {
	await page.goto(`${server.url}#file=1&view=timeline&critical=0`);
	await canvas().waitFor();
	await retry(async () => assert.equal(await attr('data-critical-edges'), '6'));
	assert.equal(await attr('data-critical'), '4');
	assert.equal(await attr('data-critical-names'), 'aten::add|cudaDeviceSynchronize|gemm_a|gemm_b');
	assert.equal(await page.getByTestId('timeline-critical-note').textContent(),
		'critical path of ProfilerStep 0: 4 events, 154.000 us');
	await shot(page, 'timeline-critical');
	await page.getByTestId('timeline-critical').click();
	await retry(async () => assert.equal(await attr('data-critical-edges'), '0'));
	assert.equal(await attr('data-critical'), '0');
	assert.equal((await hash()).get('critical') || '', '');
	await page.getByTestId('timeline-critical').click();
	await retry(async () => assert.equal(await attr('data-critical-edges'), '6'));
	assert.equal((await hash()).get('critical'), '0');
});

test('the CPU-bound fixture: its 2 events outlined, 3 edges', async () => {
	await page.goto(`${server.url}#file=2&view=timeline&critical=0`);
	await canvas().waitFor();
	await retry(async () => assert.equal(await attr('data-critical-edges'), '3'));
	assert.equal(await attr('data-critical-names'), 'aten::op|cudaLaunchKernel');
});

test('the GPU waits page: the critical path section (by hand)', async () => {
	await page.goto(`${server.url}#file=1&view=waits`);
	await page.getByTestId('cp-note').waitFor();
	assert.equal(await page.getByTestId('cp-note').textContent(),
		"HTA's critical path of ProfilerStep 0: 4 events, 6 edges, 154.000 us; the timeline draws it (critical=0).");
	const rows = await page.locator('[data-table=cp_summary] tbody tr').evaluateAll(
		(trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
	// 0 / 4 / 145 / 5 us of 154: the shares by hand
	assert.deepEqual(rows.map((r) => [r[0], r[1], r[3]]), [
		['', '0 ns', '2'], ['cpu_bound', '4.000 us', '1'], ['gpu_compute_bound', '145.000 us', '2'],
		['gpu_kernel_kernel_overhead', '5.000 us', '1']]);
	assert.match(rows[2][2], new RegExp(`^${(100 * 145 / 154).toFixed(2)}`));
});
