// Browser tests of the Timeline's lane order, collapsing, counters, flows,
// linked events and "Open in Perfetto", on the hand-written
// tests/server/timeline_more.json (processes 30 (sort 1), 10 (sort 2), 5
// (none); pid 10's threads 2 (sort 3), 8 (sort 4, GPU), 1 (sort 5), 3 (CPU,
// none), 0 (GPU, none); two counters; two launches and an s/t/f chain).
// ui.perfetto.dev is never reached: the browser context routes it to a stub
// page that answers PING with PONG and keeps what it is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, shot as shotOf, fresh, untilCanvas, retry, onApi } from './harness.mjs';
import { serving } from './serving.mjs';

const fixture = path.join(root, 'tests/server/timeline_more.json');
// the order written by hand from the fixture's sort indexes (see above)
const ORDER = '30/1 10/2 10/8 10/1 10/3 10/0 5/1';

let server, url, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); url = server.url; } });

const shot = (name) => shotOf(page, name);
const apiGet = async (q) => (await fetch(`${url}api/file/1/${q}`)).json();

// polls an attribute of the canvas (the page's CSP forbids waitForFunction)
const until = (attr, ok) => untilCanvas(page, attr, ok);


test('lanes come in sort-index order, with the counter lanes', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	await until('data-order', (v) => v !== '');
	const whole = await apiGet('timeline?px=100');
	assert.equal(whole.lanes.map((l) => `${l.pid}/${l.tid}`).join(' '), ORDER);
	assert.equal(await page.getByTestId('timeline-canvas').getAttribute('data-order'), ORDER);
	assert.equal(whole.counters.length, 2);
	assert.equal(await page.getByTestId('timeline-canvas').getAttribute('data-counters'), '2');
});

test('a click on a lane\'s name collapses it, and a reload keeps it', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const canvas = page.getByTestId('timeline-canvas');
	const items = +(await until('data-items', (v) => +v > 0));
	const box = await canvas.boundingBox();
	await page.mouse.click(box.x + 40, box.y + 9); // the first lane's header: pid 30, track 4
	assert.equal(await until('data-collapsed', (v) => v !== ''), 't4');
	assert.match(page.url(), /collapsed=t4/);
	assert.equal(await canvas.getAttribute('data-items'), String(items - 1)); // late_op hidden
	await page.reload();
	await until('data-order', (v) => v !== '');
	assert.equal(await until('data-collapsed', (v) => v !== ''), 't4');
	await page.mouse.click(box.x + 40, box.y + 9);
	assert.equal(await until('data-collapsed', (v) => v === ''), '');
});

test('Flows asks for flows=1 and draws an arrow per flow of the answer', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	await until('data-order', (v) => v !== '');
	const want = await apiGet('timeline?px=100&flows=1');
	assert.deepEqual(want.flows.kind, ['launch', 'launch', 'flow', 'flow']); // two launches, two arrows of fwdbwd 7
	const asked = [];
	const onReq = (r) => { if (r.url().includes('/timeline?')) asked.push(new URL(r.url()).searchParams); };
	const offReq = onApi(page, onReq);
	await page.getByTestId('timeline-flows').click();
	assert.equal(await until('data-flows', (v) => v !== '0'), String(want.flows.id.length));
	offReq();
	assert.ok(asked.some((p) => p.get('flows') === '1'), 'no request with flows=1');
	assert.match(page.url(), /flows=1/);
	await shot('timeline-flows');
	await page.keyboard.press('f'); // the key toggles it off
	assert.equal(await until('data-flows', (v) => v === '0'), '0');
});

test('a launch\'s details link to its kernel, which the link jumps to', async () => {
	// a window of 15-27 µs: the second lane's instants and main's [memory]
	// are outside it, so no lane has an instant row
	await fresh(page, `${url}#file=1&view=timeline&start=15000&end=27000`);
	const canvas = page.getByTestId('timeline-canvas');
	await until('data-start', (v) => v === '15000');
	await page.waitForTimeout(200); // the answer at the laid-out width
	const box = await canvas.boundingBox();
	// lanes above main: 30/1, 10/2, 10/8 (header 18 + one row 16 each);
	// main: header 18, depth 0, then depth 1: the launch at 20-24 µs
	await page.mouse.click(box.x + box.width * (22000 - 15000) / 12000, box.y + 3 * 34 + 18 + 16 + 8);
	await page.getByTestId('timeline-event').waitFor();
	assert.match(await page.getByTestId('timeline-event').textContent(), /^cudaLaunchKernel · cuda_runtime/);
	const link = page.getByTestId('timeline-link');
	await link.waitFor();
	assert.match(await link.textContent(), /^launched: k8 \(kernel/);
	assert.equal(await link.getAttribute('data-row'), '8');
	await link.click();
	// centered on k8 (30-35 µs), the 12 µs span kept
	assert.equal(await until('data-start', (v) => v !== '15000'), '26500');
	assert.equal(await canvas.getAttribute('data-end'), '38500');
	assert.match(page.url(), /start=26500&end=38500/);
});

test('Open in Perfetto posts the trace\'s bytes to ui.perfetto.dev after its PONG', async () => {
	const ctx = page.context();
	// the stub UI: answers PING with PONG, keeps the message and the bytes
	const stub = '<!doctype html><title>stub</title><script>' +
		'window.got = null; window.pings = 0;' +
		'addEventListener("message", (e) => {' +
		' if (e.data === "PING") { window.pings++; e.source.postMessage("PONG", "*"); return; }' +
		' const p = e.data && e.data.perfetto;' +
		' if (p) window.got = { isBuffer: p.buffer instanceof ArrayBuffer, title: p.title, keep: p.keepApiOpen, fromOpener: e.source === window.opener, text: new TextDecoder().decode(p.buffer) };' +
		'});</script>';
	const opened = [];
	await ctx.route('https://ui.perfetto.dev/**', (r) => { opened.push(r.request().url()); return r.fulfill({ status: 200, contentType: 'text/html', body: stub }); });
	await fresh(page, `${url}#file=1&view=timeline`);
	await until('data-order', (v) => v !== '');
	const btn = page.getByTestId('timeline-perfetto');
	assert.equal(await btn.textContent(), 'Open in Perfetto');
	const [popup] = await Promise.all([page.waitForEvent('popup'), btn.click()]);
	let got = null;
	for (let i = 0; i < 200 && !got; i++) {
		got = await popup.evaluate(() => window.got).catch(() => null);
		if (!got) await page.waitForTimeout(25);
	}
	assert.ok(got, 'the stub got no trace');
	assert.match(opened[0], /^https:\/\/ui\.perfetto\.dev\//);
	assert.ok(got.isBuffer && got.fromOpener);
	assert.equal(got.title, 'timeline_more.json');
	assert.equal(got.keep, false);
	const want = await (await fetch(`${url}api/file/1/trace`)).text();
	assert.equal(got.text, want);
	assert.ok(want.includes('"traceEvents"'));
	await popup.close();
	// a zoomed-in window sends its slice
	await fresh(page, `${url}#file=1&view=timeline&start=25000&end=65000`);
	await until('data-start', (v) => v === '25000');
	const [popup2] = await Promise.all([page.waitForEvent('popup'), btn.click()]);
	got = null;
	for (let i = 0; i < 200 && !got; i++) {
		got = await popup2.evaluate(() => window.got).catch(() => null);
		if (!got) await page.waitForTimeout(25);
	}
	assert.equal(got?.text, await (await fetch(`${url}api/file/1/trace?start_ns=25000&end_ns=65000`)).text());
	await popup2.close();
	// offline, the button downloads the trace instead
	await ctx.setOffline(true);
	await retry(async () => assert.equal(await btn.textContent(), 'Download for Perfetto (offline)'));
	await ctx.setOffline(false);
	await ctx.unroute('https://ui.perfetto.dev/**');
});
