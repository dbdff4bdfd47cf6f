// Browser test of the file list's Remove button: a server with
// examples/resnet_like.json.gz on its command line and one upload
// (memory.json, through the page's Open button); Remove on the upload,
// with a step selected, leaves the command line's file listed, selected
// and shown, and the server answers 404 for the removed file; Remove on the
// last file empties the list and the page says so. Run by tests/web/run.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, cliJson, retry, shot } from './harness.mjs';
import { serving } from './serving.mjs';

const fixture = path.join(root, 'examples/resnet_like.json.gz');
const upload = path.join(root, 'tests/golden/_inputs/memory.json');
let server, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); } });

const serverFiles = async () => JSON.parse(await page.evaluate(async () => (await fetch('/api/files')).text())).files;
const status = (u) => page.evaluate(async (x) => (await fetch(x)).status, u);

test('Remove takes the selected file off the server and the list', async () => {
	await page.goto(server.url);
	await page.getByTestId('card-steps').waitFor();
	assert.equal(await page.getByTestId('file-remove').isVisible(), true);
	await page.getByTestId('upload').setInputFiles(upload);
	await page.locator('#file option').nth(1).waitFor({ state: 'attached' });
	assert.deepEqual(await page.locator('#file option').allTextContents(), ['resnet_like.json.gz', 'memory.json']);
	await retry(async () => assert.equal(await page.locator('#file').inputValue(), '2'));
	assert.equal(await status('/api/file/2/memory'), 200);
	// a step selected in the hash: DELETE takes no parameter, the page sends none
	await page.evaluate(() => { location.hash = '#file=2&view=overview&step=3'; });
	await page.getByTestId('file-remove').click();
	await retry(async () => assert.deepEqual(await page.locator('#file option').allTextContents(), ['resnet_like.json.gz']));
	assert.deepEqual((await serverFiles()).map((f) => [f.id, f.name]), [[1, 'resnet_like.json.gz']]);
	assert.equal(await status('/api/file/2/memory'), 404);
	assert.equal(await page.getByTestId('error').isVisible(), false);
	// the remaining file is selected and its Overview shown
	assert.equal(await page.locator('#file').inputValue(), '1');
	const want = cliJson('summary', fixture);
	await retry(async () => assert.equal(await page.getByTestId('card-steps').textContent(), String(want.overview.steps)));
	await shot(page, 'remove-one');
	// the last one: the list empties, the page says no file is loaded
	await page.getByTestId('file-remove').click();
	await retry(async () => assert.equal(await page.locator('#file option').count(), 0));
	assert.deepEqual(await serverFiles(), []);
	assert.equal(await page.getByTestId('file-remove').isVisible(), false);
	assert.match(await page.locator('#view').textContent(), /resnet_like\.json\.gz was removed; no file is loaded/);
	assert.equal(await status('/api/file/1/summary'), 404);
});
