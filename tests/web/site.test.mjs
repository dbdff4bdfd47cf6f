// Browser test of the static site (make site: build/site/, the viewer's
// pages on the WebAssembly engine in a Web Worker, no gpuprof server): a
// plain static file server (node's http module) serves the folder, the
// traces are opened with the page's own file input, and the pages show
// what the server-backed tests assert: the Overview the numbers of the
// native binary's `summary` on the same file (viewer.test.mjs's overview
// test: overview.mjs), the GPU waits cards worked by hand (waits.test.mjs),
// the timeline's lanes and counter line worked by hand (timeline_nav's),
// the memory page's table as long as the native `memory`'s, the Diff
// page's summary line and steps table those of the native `diff`'s
// reports (diff_expect.mjs, as diff.test.mjs), a Nsight Compute report's
// kernels and Summary cards as worked by hand (ncu_csv.mjs, as
// ncu_summary.test.mjs), the Timeline's downloads (download_expect.mjs, as
// download.test.mjs), the Distributed page's tables (dist_tables.mjs, as
// dist.test.mjs). Skipped when
// build/site/ was not built (make site needs emscripten).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { root, gpuprof, cliJson, cliText, launchBrowser, newPage, shot, retry, untilCanvas } from './harness.mjs';
import { checkOverview } from './overview.mjs';
import { diffExpect } from './diff_expect.mjs';
import { full, FULL_KERNEL0_CARDS, summaryCardsOf } from './ncu_csv.mjs';
import { checkWholeDownload, checkWindowDownload, downloadFixture } from './download_expect.mjs';
import { assertTables, textTables } from './dist_tables.mjs';

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

// Opens the site afresh (a new worker, no file) and uploads files in turn.
async function openSite(files) {
	await page.goto('about:blank');
	await page.goto(url);
	for (const [i, f] of files.entries()) {
		await page.setInputFiles('[data-testid=upload]', f);
		await retry(async () => assert.equal(await page.locator('#file option').count(), i + 1), 30000);
	}
}

const hta = (name) => path.join(root, 'tests/hta/fixtures', name);
const skip = !built && 'build/site absent (make site)';

test('static site: the GPU waits page, as worked by hand', { skip }, async () => {
	await openSite([hta('cuda-steps.json')]);
	await page.goto(`${url}#file=1&view=waits`);
	await page.getByTestId('card-idle').waitFor({ timeout: 30000 });
	// kernel time 285 us; idle 124, compute 80, non-compute 81 of it
	assert.equal(await page.getByTestId('card-kernel-time').textContent(), '285.000 us');
	assert.equal(await page.getByTestId('card-idle').textContent(), '43.51 %');
	assert.equal(await page.getByTestId('card-compute').textContent(), '28.07 %');
	assert.equal(await page.getByTestId('card-non-compute').textContent(), '28.42 %');
});

test('static site: the timeline\'s lanes and counter line, as worked by hand', { skip }, async () => {
	await openSite([path.join(root, 'tests/server/timeline_area.json')]);
	await page.goto(`${url}#file=1&view=timeline`);
	// gpu (process sort 1) stream 7, then host worker (thread sort 1), main
	assert.equal(await untilCanvas(page, 'data-order', (v) => v !== ''), '2/7 1/2 1/1');
	// zoomed to 30..60 us: Queue/length 4 (sampled at 25 us), then 2 at 50
	// (a hash change draws the new timeline at once, its lanes empty until
	// the window's answer is in: the window's start and end come with it)
	await page.goto(`${url}#file=1&view=timeline&start=30000&end=60000`);
	await untilCanvas(page, 'data-end', (v) => v === '60000');
	const canvas = page.getByTestId('timeline-canvas');
	assert.equal(await canvas.getAttribute('data-start'), '30000');
	assert.equal(await canvas.getAttribute('data-counter-steps'), 'c0=25000:4 50000:2');
	await shot(page, 'site-timeline');
});

test('static site: the memory page\'s table has the native binary\'s rows', { skip }, async () => {
	await openSite([fixture]);
	const mem = cliJson('memory', fixture);
	await page.goto(`${url}#file=1&view=memory`);
	await page.getByTestId('memory-curve').waitFor({ timeout: 30000 });
	await retry(async () => assert.equal(await page.getByTestId('table-memory').locator('tbody tr').count(), mem.operators.length), 30000);
});

test('static site: the Diff page of two traces, as the native diff reports it', { skip }, async () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-site-diff-'));
	try {
		const a = path.join(dir, 'a.json'), sl = path.join(dir, 's.json');
		const synth = (...args) => execFileSync(gpuprof, ['-q', 'synth', '--model', 'tiny', '--steps', '6', ...args]);
		synth('-o', a);
		synth('--slow-step', '5=3ms', '-o', sl);
		await openSite([a, sl]);
		await page.goto(`${url}#view=diff&base=1&new=2`);
		const { total, line } = diffExpect([a, sl]);
		await retry(async () => assert.equal(await page.getByTestId('diff-summary').textContent(), line), 30000);
		const rows = await page.getByTestId('diff-steps').locator('tbody tr')
			.evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(0, -1).map((td) => td.textContent)));
		assert.deepEqual(rows, total.map((r) => ['Part', 'Base Mean', 'New Mean', 'Δ Mean', 'Δ %', 'Base Median', 'New Median', 'p', 'Test', 'Verdict'].map((c) => r[c])));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

// The engine keeps a file's view answers: a repeated request gets the same
// bytes as the first (both the native command's output), and a removed
// file's requests are answered 404, not from the kept answers.
test('static site: a repeated request gets the same answer; a removed file none', { skip }, async () => {
	await openSite([fixture]);
	const want = cliText('kernels', fixture, '--format', 'json'); // the server's bytes, its newline too
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

test('static site: a plain trace is pushed to the engine from the File\'s stream, a gzip one read by the engine; both answer the native bytes', { skip }, async () => {
	// a synthetic trace of three of the worker's 4 MiB slices, and the
	// gzip fixture (which the engine reads itself, through WORKERFS)
	const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-site-push-'));
	try {
		const plain = path.join(dir, 'synth.json');
		execFileSync(gpuprof, ['synth', '-q', '--size', '10M', '-o', plain]);
		await openSite([]);
		const [worker] = page.workers();
		// count the pushes: engine_worker.js calls the module's export by name
		await worker.evaluate(async () => {
			const M = await engine;
			const begin = M._gp_site_push_begin;
			self.gpPushes = 0;
			M._gp_site_push_begin = (...a) => {
				const sp = begin(...a);
				if (sp) self.gpPushes += 1;
				return sp;
			};
		});
		const answers = async () => page.evaluate(async () => {
			const { files } = await (await fetch('/api/files')).json();
			const f = files[files.length - 1];
			const get = async (v) => (await fetch(`/api/file/${f.id}/${v}`)).text();
			return { summary: await get('summary'), kernels: await get('kernels') };
		});
		for (const [i, file] of [plain, fixture].entries()) {
			await page.setInputFiles('[data-testid=upload]', file);
			await retry(async () => assert.equal(await worker.evaluate(() => files.length), i + 1), 60000);
			assert.equal(await worker.evaluate(() => self.gpPushes), 1, file); // the plain one only
			const got = await answers();
			assert.equal(got.summary, cliText('summary', file, '--format', 'json'), file);
			assert.equal(got.kernels, cliText('kernels', file, '--format', 'json'), file);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('static site: an Nsight Systems export is refused with one message, and nothing is loaded', { skip }, async () => {
	// the site has no SQLite (src/wasm/sqlite_absent.c): the page says so in
	// its error line and lists no file; a trace opened after it still loads
	const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-site-nsys-'));
	try {
		const db = path.join(dir, 'capture.sqlite');
		execFileSync('sqlite3', [db, 'CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);']);
		await page.goto('about:blank');
		await page.goto(url);
		await page.setInputFiles('[data-testid=upload]', db);
		const error = page.getByTestId('error');
		await error.waitFor();
		assert.match(await error.textContent(), /^Could not load capture\.sqlite: (.*: )?SQLite is not part of the WebAssembly build of gpuprof; read Nsight Systems exports with the native gpuprof$/);
		assert.equal(await page.locator('#file option').count(), 0);
		const files = await page.evaluate(async () => (await (await fetch('/api/files')).json()).files);
		assert.deepEqual(files, []);
		await page.setInputFiles('[data-testid=upload]', fixture);
		await retry(async () => assert.equal(await page.locator('#file option').count(), 1), 30000);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('static site: a Nsight Compute report\'s page: the kernels and the Summary cards as worked by hand, the answers the native ncu views\' bytes', { skip }, async () => {
	await openSite([full]);
	// the page: the kernel list and the first kernel's Summary tab
	await page.goto(`${url}#file=1&view=ncu&kernel=0`);
	await page.getByTestId('ncu-summary-card').first().waitFor({ timeout: 30000 });
	assert.deepEqual((await summaryCardsOf(page)).map((c) => [c.label, c.value]), FULL_KERNEL0_CARDS);
	const names = await page.getByTestId('ncu-kernels').locator('li').evaluateAll((items) => items.map((r) => r.textContent));
	assert.equal(names.length, 2);
	assert.ok(names[0].includes('sgemm_tile') && names[1].includes('relu_kernel'), names.join(' | '));
	// the endpoints: what `gpuprof ncu VERB --format json` prints, byte for byte
	const got = await page.evaluate(async () => {
		const one = async (q) => { const r = await fetch(`/api/file/1/ncu/${q}`); return [r.status, await r.text()]; };
		return { list: await one('list'), details: await one('details?id=1'), regex: await one('details?kernel=1'), bad: await one('nosuch') };
	});
	assert.deepEqual(got.list, [200, cliText('ncu', 'list', full, '--format', 'json')]);
	assert.deepEqual(got.details, [200, cliText('ncu', 'details', full, '--id', '1', '--format', 'json')]);
	assert.deepEqual(got.regex, [200, cliText('ncu', 'details', full, '--kernel', '1', '--format', 'json')]); // the mangled names' digits
	assert.equal(got.bad[0], 404);
	assert.match(JSON.parse(got.bad[1]).error.message, /^ncu: /);
	await shot(page, 'site-ncu');
});

test('static site: Download trace, whole and window, as the server-backed test checks it', { skip }, async () => {
	const dl = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
	dl.setDefaultTimeout(10000);
	// the file opened on a fresh page, then the hash (a reload would forget it)
	const open = async (p, u) => {
		await p.goto('about:blank');
		await p.goto(url);
		await p.setInputFiles('[data-testid=upload]', downloadFixture);
		await retry(async () => assert.equal(await p.locator('#file option').count(), 1), 30000);
		await p.evaluate((h) => { location.hash = h; }, new URL(u).hash);
	};
	try {
		await checkWholeDownload(dl, url, open);
		await checkWindowDownload(dl, url, open);
	} finally {
		await dl.close();
	}
});

test('static site: the step field offers the trace\'s annotation names, and --range NAME cuts the Operators', { skip }, async () => {
	// the names, counts and first starts of the fixture's user_annotation
	// events, as node reads the file (zlib), by name in byte order
	const ev = JSON.parse(gunzipSync(readFileSync(fixture)).toString('utf8')).traceEvents;
	const byName = new Map();
	for (const e of ev) {
		if (e.cat !== 'user_annotation' || (e.ph !== 'X' && e.ph !== 'B')) continue;
		const ns = Math.round(e.ts * 1000);
		const a = byName.get(e.name) ?? { name: e.name, count: 0, first_start_ns: ns };
		a.count += 1;
		a.first_start_ns = Math.min(a.first_start_ns, ns);
		byName.set(e.name, a);
	}
	const want = [...byName.values()].sort((x, y) => (Buffer.from(x.name) < Buffer.from(y.name) ? -1 : 1));
	await openSite([fixture]);
	const got = await page.evaluate(async () => (await (await fetch('/api/file/1/annotations')).json()).annotations);
	assert.deepEqual(got, want);
	const ann = 'DistributedDataParallel.forward';
	await page.evaluate(() => { location.hash = 'file=1&view=ops'; });
	await page.getByTestId('table-operators').waitFor({ timeout: 30000 });
	await retry(async () => assert.ok((await page.locator('#stepsel datalist option').evaluateAll((os) => os.map((o) => o.value))).includes(ann)));
	await page.getByTestId('range-input').fill(ann);
	await page.getByTestId('range-input').press('Enter');
	const rows = cliJson('ops', '--range', ann, fixture).operators.map((r) => r.name);
	await retry(async () => assert.deepEqual(await page.getByTestId('table-operators').locator('tbody tr td:first-child').evaluateAll((tds) => tds.map((td) => td.textContent)), rows), 30000);
	assert.notDeepEqual(rows, cliJson('ops', fixture).operators.map((r) => r.name));
});

test('static site: the Distributed page of two ranks, as gpuprof dist prints them', { skip }, async () => {
	// the CLI run beside the files, so that its Workers table names them as
	// the site does (by the name they were opened with)
	const inputs = path.join(root, 'tests/golden/_inputs');
	const ranks = ['node0_0.pt.trace.json', 'node0_1.pt.trace.json'];
	const cli = (...args) => execFileSync(gpuprof, ['dist', ...args, ...ranks], { cwd: inputs, encoding: 'utf8' });
	await openSite(ranks.map((r) => path.join(inputs, r)));
	const got = await page.evaluate(async () => {
		const one = async (q) => { const r = await fetch(`/api/dist${q}`); return [r.status, await r.text()]; };
		return { all: await one(''), compat: await one('?tb_compat=1&files=1,2'), bad: await one('?files=1,7') };
	});
	assert.deepEqual(got.all, [200, cli('--format', 'json')]);
	assert.deepEqual(got.compat, [200, cli('--tb-compat', '--format', 'json')]);
	assert.equal(got.bad[0], 404);
	assert.equal(JSON.parse(got.bad[1]).error.message, 'no file 7');
	await page.evaluate(() => { location.hash = 'file=1&view=dist'; });
	await page.getByTestId('dist-overlap-chart').waitFor({ timeout: 30000 });
	await assertTables(page, textTables(cli()));
	await shot(page, 'site-dist');
});

test('static site as one file (gpuprof.html) opened from file://: the Overview numbers, no request made', { skip }, async () => {
	const one = path.join(site, 'gpuprof.html');
	const p = await newPage(browser);
	const asked = [];
	p.on('request', (r) => { if (!r.url().startsWith('data:') && !r.url().startsWith('blob:')) asked.push(r.url()); });
	try {
		await p.goto(`file://${one}`);
		await p.setInputFiles('[data-testid=upload]', fixture);
		await checkOverview(p, cliJson('summary', fixture), cliText('summary', fixture));
		assert.deepEqual(asked, [`file://${one}`]);
		await shot(p, 'site-file-url');
	} finally {
		await p.close();
	}
});
