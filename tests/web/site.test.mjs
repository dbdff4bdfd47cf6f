// Browser test of the static site (make site: build/site/, the viewer's
// pages on the WebAssembly engine in a Web Worker, no gpuprof server): a
// plain static file server (node's http module) serves the folder, the
// trace is opened with the page's own file input, and the Overview shows
// the numbers of the native binary's `summary` on the same file (the
// assertions of viewer.test.mjs's overview test: overview.mjs). Skipped when
// build/site/ was not built (make site needs emscripten).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, cliJson, cliText, launchBrowser, newPage, shot } from './harness.mjs';
import { checkOverview } from './overview.mjs';

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
	await page.goto(url);
	await page.setInputFiles('[data-testid=upload]', fixture);
	await checkOverview(page, cliJson('summary', fixture), cliText('summary', fixture));
	await shot(page, 'site-overview');
});

// The worker keeps the answers it gave: a repeated request gets the same
// bytes as the first (both the native command's output), and a removed
// file's requests are answered 404, not from the kept answers.
test('static site: a repeated request gets the same answer; a removed file none', { skip: !built && 'build/site absent (make site)' }, async () => {
	const want = cliText('kernels', fixture, '--format', 'json').replace(/\n$/, '');
	const got = await page.evaluate(async () => {
		const { files } = await (await fetch('/api/files')).json();
		const id = files[files.length - 1].id;
		const one = async () => {
			const r = await fetch(`/api/file/${id}/kernels`);
			return [r.status, await r.text()];
		};
		const first = await one();
		const again = await one();
		await fetch(`/api/file/${id}`, { method: 'DELETE' });
		const gone = await one();
		return { first, again, gone: gone[0] };
	});
	assert.deepEqual(got.first, [200, want]);
	assert.deepEqual(got.again, [200, want]);
	assert.equal(got.gone, 404);
});
