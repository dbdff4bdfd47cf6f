// bench/site.mjs: the static site's import in headless chromium (make
// site first). Serves build/site/ with node's http module, opens a
// synthetic trace (`gpuprof synth --size SIZE`, default 100M) through the
// page's file input and prints the seconds until the Overview shows its
// step count (the worker's engine reads the File in slices and runs
// `summary`), best of RUNS (default 2), and MB/s of the JSON.
// Usage: GPUPROF=./gpuprof node bench/site.mjs [SIZE] [RUNS]
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, launchBrowser, newPage } from '../tests/web/harness.mjs';

const size = process.argv[2] || '100M';
const runs = Number(process.argv[3] || 2);
const site = path.join(root, 'build/site');
if (!existsSync(path.join(site, 'index.html'))) throw new Error('build/site absent: make site');
const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-site-'));
const trace = path.join(dir, 'synth.json');
execFileSync(process.env.GPUPROF || path.join(root, 'gpuprof'), ['synth', '-q', '--size', size, '-o', trace]);
const bytes = statSync(trace).size;
const server = createServer((req, res) => {
	const name = new URL(req.url, 'http://x').pathname.replace(/^\/+/, '') || 'index.html';
	const file = path.join(site, path.normalize(name));
	if (!file.startsWith(site) || !existsSync(file)) return res.writeHead(404).end();
	res.writeHead(200, { 'Content-Type': file.endsWith('.js') ? 'text/javascript' : file.endsWith('.html') ? 'text/html' : 'text/plain' });
	res.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await launchBrowser();
let best = Infinity;
for (let i = 0; i < runs; i++) {
	const page = await newPage(browser);
	await page.goto(`http://127.0.0.1:${server.address().port}/`);
	const t0 = Date.now();
	await page.setInputFiles('[data-testid=upload]', trace);
	await page.getByTestId('card-steps').waitFor({ timeout: 600000 });
	best = Math.min(best, (Date.now() - t0) / 1000);
	await page.close();
}
await browser.close();
server.close();
rmSync(dir, { recursive: true, force: true });
console.log(`site: ${(bytes / 1e6).toFixed(1)} MB synthetic trace, Overview in ${best.toFixed(2)} s (best of ${runs}), ${(bytes / 1e6 / best).toFixed(1)} MB/s`);
