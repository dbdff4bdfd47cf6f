// Browser test of the Module page's Lightning part (web/modules.js) on the
// Lightning fixture worked by hand in tests/golden/README.md
// (lightning-modules): the LightningModule tree's lines and bars, its own
// fold state, and its table, against constants from that derivation (not
// through the page's formatter); a trace that is not a Lightning trace has
// no Lightning part. Screenshot: lightning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, fresh, retry, shot } from './harness.mjs';
import { serving } from './serving.mjs';

const pl = path.join(root, 'tests/golden/lightning-modules/pl.json');
const plain = path.join(root, 'tests/golden/_inputs/modules.json');
const ctx = serving([pl, plain]);
const page = () => ctx.page;

const lines = (tid) => page().locator(`[data-testid=${tid}-tree] .module-line`).evaluateAll(
	(ds) => ds.map((d) => [d.dataset.depth, ...[...d.children].map((c) => c.textContent)]));
const width = (id, part) => page().locator(`[data-testid=${id}] rect[data-part=${part}]`)
	.evaluate((r) => Number(r.getAttribute('width')));

test('a Lightning trace shows its LightningModule tree, as worked by hand', async () => {
	await fresh(page(), `${ctx.server.url}#file=1&view=modules`);
	await page().getByTestId('lightning-tree').waitFor();
	assert.equal(await page().getByTestId('lightning-note').textContent(),
		'A PyTorch Lightning trace: 4 LightningModule modules, from its [pl][module] events.');
	// roots by name (loss, model); model.0 twice: host 150 + 100 us, self
	// 30 + 20, device 50 + 30 (all self); model.1 60 / 20 / 20 / 20; model
	// host 400, self 90, device 100, self 0; loss 50 / 20, no device time
	await retry(async () => assert.deepEqual(await lines('lightning'), [
		['0', 'loss (1×)', 'host: 50.000 us (self 20.000 us)', '50.000 us', 'device: 0 ns (self 0 ns)', '0 ns'],
		['0', '▾model (1×)', 'host: 400.000 us (self 90.000 us)', '400.000 us', 'device: 100.000 us (self 0 ns)', '100.000 us'],
		['1', 'model.0 (2×)', 'host: 250.000 us (self 50.000 us)', '250.000 us', 'device: 80.000 us (self 80.000 us)', '80.000 us'],
		['1', 'model.1 (1×)', 'host: 60.000 us (self 20.000 us)', '60.000 us', 'device: 20.000 us (self 20.000 us)', '20.000 us'],
	]));
	// 200 units for the largest top-level total, model's host 400 us
	assert.equal(await width('lightning-host-1', 'total'), 200);
	assert.ok(Math.abs((await width('lightning-host-1', 'self')) - 200 * 90 / 400) < 1e-9);
	assert.ok(Math.abs((await width('lightning-host-2', 'total')) - 200 * 250 / 400) < 1e-9);
	assert.ok(Math.abs((await width('lightning-device-1', 'total')) - 200 * 100 / 400) < 1e-9);
	assert.equal(await width('lightning-device-1', 'self'), 0);
	// its table: the four modules with gpuprof lightning's columns; no empty
	// nn.Module tree below (the trace has no python_function events)
	assert.equal(await page().getByTestId('module-tree').count(), 0);
	const cells = () => page().locator('[data-table=lightning] tbody tr').evaluateAll(
		(trs) => trs.map((tr) => tr.cells[0].textContent));
	await retry(async () => assert.deepEqual(await cells(), ['loss', 'model', 'model.0', 'model.1']));
	await shot(page(), 'lightning');
});

test('folding a LightningModule keeps the nn.Module tree\'s fold state apart', async () => {
	await fresh(page(), `${ctx.server.url}#file=1&view=modules`);
	await page().getByTestId('lightning-fold-1').click();
	await retry(async () => assert.deepEqual((await lines('lightning')).map((l) => l[1]), ['loss (1×)', '▸model (1×)']));
	await retry(async () => assert.match(await page().evaluate(() => location.hash), /plfold=1/));
	assert.doesNotMatch(await page().evaluate(() => location.hash), /[&#]fold=/);
	await page().reload();
	await retry(async () => assert.equal((await lines('lightning')).length, 2));
});

test('a trace that is not a Lightning trace has no Lightning part', async () => {
	await fresh(page(), `${ctx.server.url}#file=2&view=modules`);
	await page().getByTestId('module-tree').waitFor();
	await retry(async () => assert.equal((await lines('module')).length, 6));
	assert.equal(await page().getByTestId('lightning-tree').count(), 0);
	assert.equal(await page().getByTestId('lightning-note').count(), 0);
});
