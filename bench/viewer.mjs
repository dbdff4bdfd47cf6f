// bench/viewer.mjs: how soon each page of the viewer shows a big trace, in
// Debian's chromium (headless, through tests/web's playwright-core: run
// `npm ci` in tests/web first). Starts `gpuprof serve`, then times: the
// load (until the URL is printed), and for each page the time from
// navigation to its content (cards, first table row, drawn canvas) with a
// cold server cache, then again (cached answers). Run by `make bench-viewer`
// (GPUPROF = the binary, BENCH_TRACE = the trace; default
// build/bench/synth-1G.json).
import { performance } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gpuprof, startServer, launchBrowser, newPage } from '../tests/web/harness.mjs';

const trace = process.env.BENCH_TRACE || 'build/bench/synth-1G.json';
if (!existsSync(trace)) execFileSync(gpuprof, ['synth', '-q', '--size', '1G', '-o', trace], { stdio: 'inherit' });
const PAGES = [
	['overview', (p) => p.getByTestId('card-steps').waitFor()],
	['ops', (p) => p.getByTestId('table-operators').locator('tbody tr').first().waitFor()],
	['kernels', (p) => p.getByTestId('table-kernels').locator('tbody tr').first().waitFor()],
	['memory', (p) => p.getByTestId('table-memory').locator('tbody tr').first().waitFor()],
	// data-requests: set when the first window's answer is in and drawn
	// (data-items is set already by the empty draw before it)
	['timeline', (p) => p.locator('[data-testid=timeline-canvas][data-requests]').waitFor()],
	['steps', (p) => p.getByTestId('table-steps').locator('tbody tr').first().waitFor()],
];

const t0 = performance.now();
const server = await startServer([trace]);
const load = (performance.now() - t0) / 1000;
const browser = await launchBrowser();
const page = await newPage(browser);
page.setDefaultTimeout(120000);
const rows = [];
let firstPage = 0, firstComplete = 0;
for (const pass of ['first', 'again']) {
	for (const [view, ready] of PAGES) {
		await page.goto('about:blank');
		const t = performance.now();
		await page.goto(`${server.url}#file=1&view=${view}`);
		await ready(page);
		const s = (performance.now() - t) / 1000;
		if (pass === 'first' && view === 'overview') {
			firstPage = s;
			// drawn first from summary --quick; whole once the full summary is in
			await page.locator('[data-testid=overview][data-complete="1"]').waitFor();
			firstComplete = (performance.now() - t) / 1000;
		}
		rows.push([pass, view, s]);
	}
}
await browser.close();
await server.stop();
console.log(`trace ${trace}`);
console.log(`load (serve start -> URL printed): ${load.toFixed(3)} s`);
console.log(`load + Overview shown: ${(load + firstPage).toFixed(3)} s`);
console.log(`load + Overview complete (operator tree, recommendations): ${(load + firstComplete).toFixed(3)} s`);
console.log('pass   page       shown_s');
for (const [pass, view, s] of rows) console.log(`${pass.padEnd(6)} ${view.padEnd(10)} ${s.toFixed(3)}`);
