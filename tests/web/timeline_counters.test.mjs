// Browser test of the Timeline's HTA counter lanes (web/timeline_counters.js)
// on tests/hta/fixtures/counters.json, worked by hand in
// tests/golden/README.md (counters-fixture): off by default; the Counters
// button asks for stream_counters=1 and draws five counter lanes (queue
// length of streams 7 and 8, bandwidth of Memcpy DtoH, Memcpy HtoD and
// Memset) of 18 + 40 px each; stream 7's queue-length area is full height
// where it reaches its maximum 3 (120-130 us) and empty where the queue is
// 0 (160-500 us); key c hides them again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, shot, fresh, untilCanvas } from './harness.mjs';
import { serving } from './serving.mjs';

const fixture = path.join(root, 'tests/hta/fixtures/counters.json');
let server, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); } });

const until = (attr, ok) => untilCanvas(page, attr, ok);
const height = () => page.getByTestId('timeline-canvas').evaluate((c) => parseFloat(c.style.height));
// the alpha of the canvas pixel at CSS (x, y), x given as a time from the
// trace's start (ns)
const alphaAt = (ns, y) => page.getByTestId('timeline-canvas').evaluate((c, [t, yy]) => {
	const W = parseFloat(c.style.width), d = window.devicePixelRatio || 1;
	const x = (t - +c.dataset.start) / (+c.dataset.end - +c.dataset.start) * W;
	return c.getContext('2d').getImageData(Math.round(x * d), Math.round(yy * d), 1, 1).data[3];
}, [ns, y]);

const SHOWN = 'Queue Length stream 7 0-3|Queue Length stream 8 0-2|Memcpy BW Memcpy DtoH 0-10|'
	+ 'Memcpy BW Memcpy HtoD 0-10|Memcpy BW Memset 0-2.5';

test('the counter lanes: off by default, five under their streams, peaks drawn', async () => {
	await fresh(page, `${server.url}#file=1&view=timeline`);
	await until('data-lanes', (v) => v === '3');
	assert.equal(await until('data-stream-counters', () => true), '');
	const h0 = await height();
	await page.getByTestId('timeline-counters').click();
	await until('data-stream-counters', (v) => v === SHOWN);
	assert.match(await page.evaluate(() => location.hash), /counters=1/);
	assert.equal(await height(), h0 + 5 * (18 + 40));
	// lane of stream 7 (the first: pid 0 before pid 1): 18 + one depth of
	// 16 px; its queue-length lane next: header 34-52, area 52-92, the
	// value 3 at y = 52 + 3 (the window's maximum)
	const lo = 95000; // the trace's start: aten::mm at 95 us
	assert.ok(await alphaAt(125000 - lo, 60) > 0, 'queue length 3 at 125 us is filled');
	assert.equal(await alphaAt(300000 - lo, 60), 0, 'queue length 0 at 300 us is empty');
	await shot(page, 'timeline-counters');
	await page.keyboard.press('c');
	await until('data-stream-counters', (v) => v === '');
	assert.equal(await height(), h0);
	assert.doesNotMatch(await page.evaluate(() => location.hash), /counters=1/);
});

test('counters=1 in the hash opens the page with the lanes', async () => {
	await fresh(page, `${server.url}#file=1&view=timeline&counters=1`);
	await until('data-stream-counters', (v) => v === SHOWN);
	const r = await fetch(`${server.url}api/file/1/timeline?px=100&stream_counters=1`);
	const d = await r.json();
	assert.deepEqual(d.stream_counters.map((c) => [c.name, c.stream ?? c.kind, c.samples]), [
		['Queue Length', 7, 10], ['Queue Length', 8, 6], ['Memcpy BW', 'Memcpy DtoH', 4],
		['Memcpy BW', 'Memcpy HtoD', 2], ['Memcpy BW', 'Memset', 2]]);
});
