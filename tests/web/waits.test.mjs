// Browser test of the GPU waits page (web/waits.js) on the two fixtures
// worked by hand in tests/golden/README.md (idle-cuda, launches-all): the
// cards, every cell of the idle and ATen-op tables, the first largest
// delay, and the bars' widths, against constants computed by hand (not
// through the page's formatter). Screenshot: waits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, startServer, launchBrowser, newPage, retry, shot } from './harness.mjs';

const steps = path.join(root, 'tests/hta/fixtures/cuda-steps.json');
const launches = path.join(root, 'tests/hta/fixtures/launches.json');
const sync = path.join(root, 'tests/hta/fixtures/sync.json');
const flops = path.join(root, 'tests/hta/fixtures/flops.json');
const seqs = path.join(root, 'tests/hta/fixtures/sequences.json');
let server, browser, page;

before(async () => {
	server = await startServer([steps, launches, sync, flops, seqs]);
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
});

const text = (id) => page.getByTestId(id).textContent();
const cells = (name) => page.locator(`[data-table=${name}] tbody tr`).evaluateAll(
	(trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
const width = (sel) => page.locator(sel).evaluate((r) => Number(r.getAttribute('width')));

test('idle time and the temporal breakdown, as worked by hand', async () => {
	await page.goto(`${server.url}#file=1&view=waits`);
	await page.getByTestId('card-idle').waitFor();
	// kernel time 285 us; idle 124, compute 80, non-compute 81 of it
	assert.equal(await text('card-kernel-time'), '285.000 us');
	assert.equal(await text('card-idle'), '43.51 %');
	assert.equal(await text('card-compute'), '28.07 %');
	assert.equal(await text('card-non-compute'), '28.42 %');
	assert.match(await text('waits-note'), /^8 device events with a stream, 2 streams with kernels, 1 launched from the last step left out\.$/);
	await retry(async () => assert.deepEqual(await cells('idle'), [
		['0', '7', 'host_wait', '40.000 us', '0.380952'],
		['0', '7', 'kernel_wait', '35.000 us', '0.333333'],
		['0', '7', 'other', '30.000 us', '0.285714'],
		['0', '8', 'other', '0 ns', '-'],
	]));
	// the temporal bar: 1000 units for 285 us; a stream's bar: 1000 for the
	// largest stream's idle sum (105 us)
	assert.ok(Math.abs((await width('[data-testid=temporal-chart] rect[data-part=idle_time_ns]')) - 1000 * 124 / 285) < 1e-6);
	assert.ok(Math.abs((await width('[data-testid=idle-stream-7] rect[data-part=host_wait]')) - 1000 * 40 / 105) < 1e-6);
	assert.equal(await width('[data-testid=idle-stream-8] rect[data-part=other]'), 0);
	// intervals: stream 7's other gap is one of 30 us; stream 8 has none
	// intervals: kernel wait's gaps 10, 29 and -4 us: mean 35/3 = 11.667 us
	// (a double, rounded to the ns as the CLI's text), std 16.563 us
	const iv = await cells('intervals');
	assert.deepEqual(iv.map((r) => r.slice(1, 4)), [['7', 'host_wait', '1'], ['7', 'kernel_wait', '3'], ['7', 'other', '1'], ['8', 'other', '0']]);
	assert.deepEqual(iv[1].slice(4, 6), ['11.667 us', '16.563 us']);
	await shot(page, 'waits');
});

test('launches: counts, the largest delay and the ATen op sequences', async () => {
	await page.goto(`${server.url}#file=2&view=waits`);
	await page.getByTestId('card-launches').waitFor();
	await retry(async () => assert.equal(await text('card-launches'), '8'));
	assert.equal(await text('card-short'), '5');
	assert.equal(await text('card-runtime-outliers'), '1');
	assert.equal(await text('card-delay-outliers'), '2');
	const top = await cells('top_delays');
	assert.equal(top.length, 8);
	assert.deepEqual(top[0], ['7', 'cudaLaunchKernel', 'relu_kernel', '5.000 us', '3.000 us', '180.000 us', 'yes', 'no', 'yes']);
	assert.deepEqual(await cells('aten_ops'), [
		['aten::addmm', 'gemm -> bias_add', '2', '10.000 us', '20.000 us'],
		['aten::relu', 'relu_kernel', '1', '5.000 us', '185.000 us'],
	]);
	// the search box filters the largest delays and the hash keeps it
	await page.getByTestId('search-top_delays').fill('bias');
	await retry(async () => assert.deepEqual((await cells('top_delays')).map((r) => r[0]), ['2', '4']));
	await retry(async () => assert.match(await page.evaluate(() => location.hash), /q=bias/));
});

test('host waits: the blocked time and the call sites (sync-sites, by hand)', async () => {
	await page.goto(`${server.url}#file=3&view=waits`);
	await page.getByTestId('card-sync-calls').waitFor();
	await retry(async () => assert.equal(await text('card-sync-calls'), '5'));
	// 100 + 20 + 60 + 300 + 40 us blocked of the 2,440 us span
	assert.equal(await text('card-sync-blocked'), '520.000 us');
	assert.equal(await text('card-sync-pct'), '21.31 %');
	const rows = await cells('sync_sites');
	assert.deepEqual(rows.map((r) => [r[0], r[2], r[4], r[6]]), [
		['cudaDeviceSynchronize', '', '', '300.000 us'],
		['cudaMemcpyAsync', 'aten::_local_scalar_dense', '.item()', '100.000 us'],
		['cudaStreamSynchronize', 'aten::nonzero', '.nonzero()', '60.000 us'],
		['cudaMemcpy', '', '', '40.000 us'],
		['cudaStreamSynchronize', 'aten::_local_scalar_dense', '.item()', '20.000 us'],
		['cudaStreamWaitEvent', 'aten::copy_', '', '2.000 us'],
	]);
});

test('the roofline of the flops fixture (flops-fixture, by hand)', async () => {
	await page.goto(`${server.url}#file=4&view=waits`);
	await page.getByTestId('roofline').waitFor();
	// 5 calls, 6.58086 GFLOP in 19 us: 346.361 TFLOP/s on the H100
	assert.equal(await text('flops-note'), '5 calls modelled, 6.58086 GFLOP in 19.000 us: 346.361 TFLOP/s on NVIDIA H100 80GB HBM3.');
	const pts = await page.locator('[data-testid=roofline] circle').evaluateAll((cs) => cs.map((c) =>
		[c.dataset.op, Number(c.dataset.ai), Number(c.dataset.tflops), Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]));
	const want = [ // FLOP/B and mean TFLOP/s as worked by hand
		['aten::mm', 2147483648 / 7340032, (536.870912 + 268.435456) / 2],
		['aten::addmm', 2149580800 / 7344128, 2149580800 / 4e-6 / 1e12],
		['aten::_scaled_dot_product_flash_attention', 64, 134217728 / 2e-6 / 1e12],
		['aten::bmm', 2097152 / 229376, 2097152 / 1e-6 / 1e12],
	];
	assert.equal(pts.length, 4);
	pts.forEach((p, i) => {
		assert.equal(p[0], want[i][0]);
		assert.ok(Math.abs(p[1] - want[i][1]) < 1e-9 * want[i][1], `${p[0]} FLOP/B ${p[1]} vs ${want[i][1]}`);
		assert.ok(Math.abs(p[2] - want[i][2]) < 1e-9 * want[i][2], `${p[0]} TFLOP/s ${p[2]} vs ${want[i][2]}`);
	});
	// log scales: more FLOP/B is further right, more TFLOP/s higher up
	assert.ok(pts[3][3] < pts[2][3] && pts[2][3] < pts[0][3] && pts[0][3] < pts[1][3]);
	assert.ok(pts[3][4] > pts[2][4] && pts[2][4] > pts[0][4] && pts[0][4] > pts[1][4]);
	// the ceilings: bf16 989.5 and fp32 67 TFLOP/s
	const peaks = await page.locator('[data-testid=roofline] polyline').evaluateAll((ls) => ls.map((l) => Number(l.dataset.peak)));
	assert.deepEqual(peaks.sort((a, b) => a - b), [67, 989.5]);
	await page.getByTestId('roofline').scrollIntoViewIfNeeded();
	await shot(page, 'roofline');
});

test('kernel sequences of the steps (sequences-steps-json, by hand)', async () => {
	await page.goto(`${server.url}#file=5&view=waits`);
	await page.getByTestId('seq-note').waitFor();
	// steps 1 and 2 (the last step is dropped), one pattern each (retried:
	// the previous file's page, with its own note, may still be shown)
	await retry(async () => assert.equal(await text('seq-note'), '2 steps launching at least 3 kernels, 2 kernel sequences (the same sequence in several steps: a CUDA graph candidate).'));
	// step 1: 8 device events, GPU 33 + 35 + 10 us; step 2: 10, with the
	// backward thread's mm_bwd, 35 + 39 + 39 + 30 us; both 1 ms of CPU;
	// the first six names of each, then how many more
	await retry(async () => assert.deepEqual(await cells('sequences'), [
		['0', 'ProfilerStep|gemm_a|Memset (Device)|bias_add|gemm_a|Memset (Device)|… (+3 more)', '8', '1',
			'78.000 us', '1.000 ms', '78.000 us', '1.000 ms', '0 ns'],
		['1', 'ProfilerStep|gemm_a|Memset (Device)|bias_add|gemm_b|relu|… (+5 more)', '10', '1',
			'143.000 us', '1.000 ms', '143.000 us', '1.000 ms', '1.000 ms'],
	]));
});
