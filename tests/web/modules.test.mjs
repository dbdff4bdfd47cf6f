// Browser test of the Module page (web/modules.js) on the fixture worked by
// hand in tests/golden/README.md (modules-default): the tree's lines, their
// host and device bars' widths, folding, and the table's rows, against
// constants computed by hand (not through the page's formatter).
// Screenshot: modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, retry, shot } from './harness.mjs';
import { serving } from './serving.mjs';

const fixture = path.join(root, 'tests/golden/_inputs/modules.json');
let server, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); } });

const lines = () => page.locator('[data-testid=module-tree] .module-line').evaluateAll(
	(ds) => ds.map((d) => [d.dataset.depth, ...[...d.children].map((c) => c.textContent)]));
const width = (id, part) => page.locator(`[data-testid=${id}] rect[data-part=${part}]`)
	.evaluate((r) => Number(r.getAttribute('width')));

test('the module tree and its bars, as worked by hand', async () => {
	await page.goto(`${server.url}#file=1&view=modules`);
	await page.getByTestId('module-tree').waitFor();
	assert.equal(await page.getByTestId('modules-note').textContent(),
		'6 modules, 6 module calls, from 7 python_function events. Bars: host and device total, the darker part self time, scaled to the largest top-level module.');
	// roots by name; Net_0's children in the order met; Linear_0: 3 calls,
	// host 100 + 100 + 50 us (self 40 + 40 + 30), device 25 + 35 + 10 us;
	// Net_0 self 500 - 100 - 100 - 30 - 50 = 220, device self aten::relu's 15
	// (each line: name, the host bar's tooltip, host total, the device bar's)
	await retry(async () => assert.deepEqual(await lines(), [
		['0', 'Linear_0 (3×)', 'host: 250.000 us (self 110.000 us)', '250.000 us', 'device: 70.000 us (self 70.000 us)', '70.000 us'],
		['0', 'Loss_0 (1×)', 'host: 40.000 us (self 20.000 us)', '40.000 us', 'device: 0 ns (self 0 ns)', '0 ns'],
		['0', '▾Net_0 (1×)', 'host: 500.000 us (self 220.000 us)', '500.000 us', 'device: 75.000 us (self 15.000 us)', '75.000 us'],
		['1', 'Linear_0 (3×)', 'host: 250.000 us (self 110.000 us)', '250.000 us', 'device: 70.000 us (self 70.000 us)', '70.000 us'],
		['1', 'Dropout_0 (1×)', 'host: 30.000 us (self 20.000 us)', '30.000 us', 'device: 0 ns (self 0 ns)', '0 ns'],
		['1', 'Linear_0 (3×)', 'host: 250.000 us (self 110.000 us)', '250.000 us', 'device: 70.000 us (self 70.000 us)', '70.000 us'],
	]));
	// bars: 200 units for the largest top-level total, Net_0's host 500 us
	assert.equal(await width('module-host-2', 'total'), 200);
	assert.ok(Math.abs((await width('module-host-2', 'self')) - 200 * 220 / 500) < 1e-9);
	assert.ok(Math.abs((await width('module-host-0', 'total')) - 200 * 250 / 500) < 1e-9);
	assert.ok(Math.abs((await width('module-host-0', 'self')) - 200 * 110 / 500) < 1e-9);
	assert.ok(Math.abs((await width('module-device-2', 'total')) - 200 * 75 / 500) < 1e-9);
	assert.ok(Math.abs((await width('module-device-2', 'self')) - 200 * 15 / 500) < 1e-9);
	assert.equal(await width('module-device-4', 'total'), 0);
	await shot(page, 'modules');
});

test('folding a module hides its children and the hash keeps it', async () => {
	await page.goto(`${server.url}#file=1&view=modules`);
	await page.getByTestId('module-fold-2').click();
	await retry(async () => assert.deepEqual((await lines()).map((l) => l[1]),
		['Linear_0 (3×)', 'Loss_0 (1×)', '▸Net_0 (1×)']));
	await retry(async () => assert.match(await page.evaluate(() => location.hash), /fold=2/));
	await page.reload();
	await retry(async () => assert.equal((await lines()).length, 3));
});

test('the table lists every row', async () => {
	await page.goto(`${server.url}#file=1&view=modules`);
	const names = () => page.locator('[data-table=modules] tbody tr').evaluateAll(
		(trs) => trs.map((tr) => tr.cells[3].textContent));
	await retry(async () => assert.deepEqual(await names(),
		['Linear_0', 'Loss_0', 'Net_0', 'Linear_0', 'Dropout_0', 'Linear_0']));
});
