// Browser test of the static site (make site: build/site/, the viewer's
// pages on the WebAssembly engine in a Web Worker, no gpuprof server): a
// plain static file server (node's http module) serves the folder, the
// trace is opened with the page's own file input, and the Overview shows
// the numbers of the native binary's `summary` on the same file (the
// assertions of viewer.test.mjs's overview test). Skipped when
// build/site/ was not built (make site needs emscripten).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, cliJson, cliText, launchBrowser, newPage, shot } from './harness.mjs';

const site = path.join(root, 'build/site');
const fixture = path.join(root, 'examples/resnet_like.json.gz');
const built = existsSync(path.join(site, 'index.html'));
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

let server, url, browser, page;

before(async () => {
	if (!built) return;
	server = createServer((req, res) => {
		const name = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
		const file = path.join(site, path.normalize(name));
		if (!file.startsWith(site) || !existsSync(file)) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
		res.end(readFileSync(file));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${server.address().port}/`;
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	server?.close();
});

test('static site: a trace opened in the page gets the Overview numbers', { skip: !built && 'build/site absent (make site)' }, async () => {
	const want = cliJson('summary', fixture);
	const avg = cliText('summary', fixture).match(/Average step time:\s+(.+)/)[1].trim();
	await page.goto(url);
	await page.setInputFiles('[data-testid=upload]', fixture);
	await page.getByTestId('card-steps').waitFor({ timeout: 120000 });
	assert.equal(await page.getByTestId('card-steps').textContent(), String(want.overview.steps));
	assert.equal(await page.getByTestId('card-avg-step').textContent(), avg);
	assert.equal(await page.getByTestId('card-device').textContent(), want.overview.device_type);
	const parts = want.breakdown.filter((p) => p.part !== 'Total');
	assert.equal(await page.locator('[data-testid=breakdown-chart] rect').count(), parts.length);
	const rows = await page.locator('[data-testid=table-breakdown] tbody tr').allTextContents();
	assert.equal(rows.length, want.breakdown.length);
	assert.ok(rows[0].startsWith(want.breakdown[0].part));
	assert.equal(await page.locator('[data-testid=table-gpus] tbody tr').count(), want.gpus.length);
	await shot(page, 'site-overview');
});
