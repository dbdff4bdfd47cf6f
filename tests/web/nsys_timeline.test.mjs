// Browser tests of an Nsight Systems export's Timeline page (web/timeline.js
// over /api/file/ID/nsys/timeline): on tests/nsys/check_sqlite.py's
// make_timeline export (two threads' NVTX ranges and CUDA API calls, two
// GPU streams; every time + 1 ms) the page shows the Timeline tab beside
// Nsight Systems and draws the API's lanes in its order; a wheel step asks
// for the zoomed window and draws that answer; a click on kernel kern_b
// shows its name, start and duration as the export's row gives them
// (python3's sqlite3 on the same file, relative to the first event) and
// its launching call; Flows draws the answer's arrows; no Open in Perfetto.
// Screenshot: nsys-timeline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, startServer, launchBrowser, newPage, shot, fresh, onApi, serveOnly } from './harness.mjs';
import { fmtDur } from '../../web/fmt.js';

const notHere = serveOnly('an Nsight Systems SQLite export');

let dir, db, server, browser, page;

before(async () => {
	if (notHere) return;
	dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-web-nsys-tl-'));
	db = path.join(dir, 'tl.sqlite');
	execFileSync('python3', ['-c', 'import sys; sys.path.insert(0, sys.argv[1]); import check_sqlite; check_sqlite.make_timeline(sys.argv[2])',
		path.join(root, 'tests/nsys'), db]);
	server = await startServer([db, path.join(root, 'examples/tiny.json')]); // 1: the export, 2: a trace
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	await server?.stop();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

const api = async (q) => (await fetch(`${server.url}api/file/1/nsys/timeline${q}`)).json();

// one SQL answer on the export (read-only), as JSON
const sql = (q) => JSON.parse(execFileSync('python3', ['-c',
	'import json, sqlite3, sys; db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True); print(json.dumps(db.execute(sys.argv[2]).fetchall()))',
	db, q], { encoding: 'utf8' }));

// polls an attribute of the canvas (the page's CSP forbids waitForFunction)
async function until(attr, ok) {
	const canvas = page.getByTestId('timeline-canvas');
	let v = null;
	for (let i = 0; i < 200; i++) {
		v = await canvas.getAttribute(attr, { timeout: 250 }).catch(() => null);
		if (v !== null && ok(v)) return v;
		await page.waitForTimeout(25);
	}
	throw new Error(`timeline: ${attr} is ${v}`);
}

const order = (d) => d.lanes.map((l) => `${l.pid}/${l.tid}`).join(' ');
// the items drawn: events one by one and merged spans (the spans columns)
const nItems = (d) => d.lanes.reduce((n, l) => n + l.items.length + l.spans.ts.length, 0);

test('an export has a Timeline tab drawing the API\'s lanes, without Open in Perfetto', { skip: notHere }, async () => {
	await fresh(page, `${server.url}#file=1&view=timeline`);
	await until('data-order', (v) => v !== '');
	const whole = await api('?px=100');
	// make_timeline's lanes: thread 101 NVTX and CUDA API, thread 102's
	// driver calls, stream 7 kernels and memory, stream 8 kernels
	assert.equal(order(whole), '100/101 100/101 100/102 0/7 0/7 0/8');
	assert.deepEqual(whole.lanes.map((l) => l.source), ['nvtx', 'cuda_api', 'cuda_api', 'kernels', 'memory', 'kernels']);
	const canvas = page.getByTestId('timeline-canvas');
	assert.equal(await canvas.getAttribute('data-order'), order(whole));
	assert.equal(await canvas.getAttribute('data-lanes'), '6');
	assert.equal(await canvas.getAttribute('data-start'), '0');
	assert.equal(await canvas.getAttribute('data-end'), '1000');
	assert.equal(await page.getByTestId('timeline-perfetto').count(), 0);
	const tabs = await page.locator('#tabs a').evaluateAll((as) => as.filter((a) => !a.hidden).map((a) => a.dataset.view));
	assert.deepEqual(tabs, ['timeline', 'nsys']);
	// the trace's Timeline keeps its Perfetto button
	await fresh(page, `${server.url}#file=2&view=timeline`);
	await page.getByTestId('timeline-perfetto').waitFor();
});

test('a wheel step zooms: the request and the drawing follow the window', { skip: notHere }, async () => {
	await fresh(page, `${server.url}#file=1&view=timeline`);
	const canvas = page.getByTestId('timeline-canvas');
	await until('data-order', (v) => v !== '');
	await page.waitForTimeout(200); // the answer at the laid-out width
	const asked = [];
	onApi(page, (r) => { if (r.url().includes('/nsys/timeline?')) asked.push(new URL(r.url()).searchParams); });
	const box = await canvas.boundingBox();
	await page.mouse.move(box.x + box.width / 2, box.y + 5);
	await page.mouse.wheel(0, -100);
	await until('data-end', (v) => v !== '1000');
	const h = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
	// 0.8 around the middle (500): [100, 900)
	assert.equal(h.get('start'), '100');
	assert.equal(h.get('end'), '900');
	await until('data-start', (v) => v === '100');
	for (let i = 0; i < 100 && !(asked.length && asked[asked.length - 1].get('start_ns') === '100'); i++) await page.waitForTimeout(25);
	const last = asked[asked.length - 1];
	assert.equal(last.get('start_ns'), '100');
	assert.equal(last.get('end_ns'), '900');
	assert.equal(last.get('px'), String(await page.evaluate(() => document.querySelector('.tl-wrap').clientWidth)));
	const zoomed = await api(`?start_ns=100&end_ns=900&px=${last.get('px')}`);
	assert.equal(await canvas.getAttribute('data-items'), String(nItems(zoomed)));
});

test('a click on a kernel shows the export\'s row; Flows draws the launches', { skip: notHere }, async () => {
	await fresh(page, `${server.url}#file=1&view=timeline&start=200&end=320`);
	const canvas = page.getByTestId('timeline-canvas');
	await until('data-start', (v) => v === '200');
	await page.waitForTimeout(200);
	const box = await canvas.boundingBox();
	const d = await api(`?start_ns=200&end_ns=320&px=${Math.floor(box.width)}`);
	// lanes above stream 7's kernels: a header (18 px) and 16 px per depth each
	const k = d.lanes.findIndex((l) => l.source === 'kernels' && l.tid === '7');
	const y = d.lanes.slice(0, k).reduce((s, l) => s + 18 + Math.max(1, l.depths) * 16, 0) + 18 + 8;
	const ev = d.lanes[k].items.find((i) => i.type === 'event' && i.name === 'kern_b');
	await canvas.click({ position: { x: (ev.ts + ev.dur / 2 - 200) / 120 * box.width, y } });
	await page.getByTestId('timeline-event').waitFor();
	const [[start, dur]] = sql('select k.start - (select min(start) from (select start from CUPTI_ACTIVITY_KIND_KERNEL union all ' +
		'select start from CUPTI_ACTIVITY_KIND_RUNTIME union all select start from CUPTI_ACTIVITY_KIND_MEMCPY union all ' +
		'select start from CUPTI_ACTIVITY_KIND_MEMSET union all select start from NVTX_EVENTS where eventType in (59, 60, 70, 71))), ' +
		'k.end - k.start from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s on s.id = k.demangledName where s.value = \'kern_b\' order by k.start limit 1');
	assert.deepEqual([start, dur], [240, 60]); // the fixture's row, by hand
	assert.equal(await page.getByTestId('timeline-event').textContent(),
		`kern_b · kernel · start ${fmtDur(start)} · duration ${fmtDur(dur)} · depth 0 · row ${ev.row} · GPU 0 / stream 7 (context 1) · kernels`);
	const link = page.getByTestId('timeline-link');
	await link.waitFor();
	assert.equal(await link.textContent(), `launched by: cudaLaunchKernel (cuda_runtime, ${fmtDur(10)} at ${fmtDur(220)})`);
	await page.getByTestId('timeline-flows').click();
	const want = await api(`?start_ns=200&end_ns=320&px=${Math.floor(box.width)}&flows=1`);
	assert.equal(want.flows_total, 11); // corr 2 (220 -> 240) and the ten tiny_k launches
	assert.equal(await until('data-flows', (v) => v !== '0'), String(want.flows.id.length));
	await shot(page, 'nsys-timeline');
});
