// Browser test of the static site (make site: build/site/, the viewer's
// pages on the WebAssembly engine in a Web Worker, no gpuprof server): a
// plain static file server (node's http module) serves the folder, the
// trace is opened with the page's own file input, and the Overview shows
// the numbers of the native binary's `summary` on the same file (the
// assertions of viewer.test.mjs's overview test: overview.mjs). Skipped when
// build/site/ was not built (make site needs emscripten).
import { test, before, after } from 'node:test';
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
