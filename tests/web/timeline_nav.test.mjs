// Browser tests of the Timeline's ruler, hover card, selection, area
// selection, W/A/S/D keys, pinned lanes, counter line and the memory
// curve's ticks, on the hand-written tests/server/timeline_area.json. Its
// times, from the trace's start (1000 us), in us:
//   pid 2 "gpu" (process sort 1), stream 7: kernels k [30, 38) and [70, 82)
//   pid 1 "host" (sort 2), thread 2 "worker" (thread sort 1):
//     load [5, 55) > mm [20, 25)
//   pid 1 thread 1 "main" (thread sort 2): step [0, 100) > fwd [10, 40) >
//     mm [15, 25), mm [28, 34); step > bwd [50, 90) > mm [60, 80)
//   counter Queue/length of pid 1: 0 at 0, 4 at 25, 2 at 50, 8 at 75
//   [memory] on main: allocated 1 MiB at 0, 3 MiB at 50, 2 MiB at 100;
//   reserved 4 MiB throughout
// Every expected number below is worked by hand from these times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, shot, fresh, untilCanvas, retry, serveOnly } from './harness.mjs';
import { serving } from './serving.mjs';

const fixture = path.join(root, 'tests/server/timeline_area.json');
let server, url, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); url = server.url; } });

const until = (attr, ok) => untilCanvas(page, attr, ok);
const hash = async () => new URLSearchParams(new URL(page.url()).hash.slice(1));

// the lanes' y extents by track, from the canvas's data-lanes-y ("t0:12-80 ...")
async function lanesY() {
	const v = await until('data-lanes-y', (s) => s !== '');
	return Object.fromEntries(v.split(' ').map((p) => {
		const [k, r] = p.split(':');
		const [a, b] = r.split('-').map(Number);
		return [k, { y0: a, y1: b }];
	}));
}

// tracks of the fixture (the order the trace's events first name them)
const MAIN = 't0', WORKER = 't1', GPU = 't2';

test('lanes follow the sort indexes: gpu, then host worker, then host main', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	assert.equal(await until('data-order', (v) => v !== ''), '2/7 1/2 1/1');
});

test('a page load asks for one window, at the lanes\' width', { skip: serveOnly('counts the HTTP requests') }, async () => {
	const asked = [];
	const seen = (r) => { const u = new URL(r.url()); if (u.pathname.endsWith('/timeline') && u.searchParams.has('start_ns')) asked.push(u.searchParams.get('px')); };
	page.on('request', seen);
	try {
		await fresh(page, `${url}#file=1&view=timeline`);
		await until('data-requests', (v) => v === '1');
		await page.waitForTimeout(500); // a second window would be asked by now
		const W = await page.locator('.tl-wrap').evaluate((e) => e.clientWidth); // the lanes' width
		assert.deepEqual(asked, [String(W)]);
	} finally {
		page.off('request', seen);
	}
});

test('the ruler ticks at 1-2-5 steps in the step\'s unit', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const ruler = page.getByTestId('timeline-ruler');
	await until('data-order', (v) => v !== '');
	const W = (await page.getByTestId('timeline-canvas').boundingBox()).width;
	assert.ok(W > 1000 && W <= 1280, `canvas ${W} px`);
	// 100 us over W px, ticks >= 80 px apart: 100000 * 80 / W is 6,250..8,000 ns, so 10 us
	await retry(async () => assert.equal(await ruler.getAttribute('data-step'), '10000'));
	assert.equal(await ruler.getAttribute('data-ticks'), '0 us|10 us|20 us|30 us|40 us|50 us|60 us|70 us|80 us|90 us|100 us');
	// 40 us shown: 40000 * 80 / W is 2,500..3,200 ns, so 5 us, from 20 us
	await fresh(page, `${url}#file=1&view=timeline&start=20000&end=60000`);
	await retry(async () => assert.equal(await ruler.getAttribute('data-step'), '5000'));
	assert.equal(await ruler.getAttribute('data-ticks'), '20 us|25 us|30 us|35 us|40 us|45 us|50 us|55 us|60 us');
	// 400 ns shown: 400 * 80 / W is 25..32 ns, so 50 ns, labelled in ns from the trace's start
	await fresh(page, `${url}#file=1&view=timeline&start=15000&end=15400`);
	await retry(async () => assert.equal(await ruler.getAttribute('data-step'), '50'));
	assert.equal(await ruler.getAttribute('data-ticks'), '15,000 ns|15,050 ns|15,100 ns|15,150 ns|15,200 ns|15,250 ns|15,300 ns|15,350 ns|15,400 ns');
});

test('hover shows name, start, duration, self time and lane; a click selects', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const canvas = page.getByTestId('timeline-canvas');
	const ys = await lanesY();
	const box = await canvas.boundingBox();
	// fwd: depth 1 of main (after its 18 px header and its 10 px instant row), 10..40 us
	const fx = box.x + box.width * 0.25, fy = box.y + ys[MAIN].y0 + 18 + 10 + 16 + 8;
	await page.mouse.move(fx, fy);
	const card = page.getByTestId('timeline-hover');
	await retry(async () => assert.deepEqual((await card.innerText()).split('\n'),
		['fwd', 'cpu_op · host / main', 'start 10.000 us', 'duration 30.000 us', 'self 14.000 us']));
	await shot(page, 'timeline-hover');
	// the worker's load: 50 us less its mm's 5 us
	await page.mouse.move(box.x + box.width * 0.1, box.y + ys[WORKER].y0 + 18 + 8);
	await retry(async () => assert.deepEqual((await card.innerText()).split('\n'),
		['load', 'cpu_op · host / worker', 'start 5.000 us', 'duration 50.000 us', 'self 45.000 us']));
	await page.mouse.move(fx, fy);
	await page.mouse.down();
	await page.mouse.up();
	assert.equal(await until('data-selected', (v) => v !== ''), '1'); // fwd is row 1
	await retry(async () => assert.equal(await page.getByTestId('timeline-self').innerText(), 'self time 14.000 us (its duration less its direct children\'s)'));
	assert.match(await page.getByTestId('timeline-event').innerText(), /^fwd · cpu_op · start 10\.000 us · duration 30\.000 us/);
});

// the rows of the area table: [name, count, total, self]
const areaRows = async () => {
	const rows = await page.getByTestId('timeline-area').locator('tbody tr').all();
	return Promise.all(rows.map(async (r) => (await r.locator('td').allInnerTexts())));
};

test('an area selection sums its lanes\' slices per name, clipped to the range', async () => {
	// 20..60 us on main and worker: step 40 (self 40 - fwd 20 - bwd 10),
	// load 35 (self 35 - mm 5), fwd 20 (self 20 - 5 - 6), mm 5 + 6 + 5, bwd 10
	// (its mm starts at 60: outside)
	await fresh(page, `${url}#file=1&view=timeline&area=20000,60000&area_tracks=0,1`);
	await retry(async () => assert.deepEqual(await areaRows(), [
		['step', '1', '40.000 us', '10.000 us'],
		['load', '1', '35.000 us', '30.000 us'],
		['fwd', '1', '20.000 us', '9.000 us'],
		['mm', '3', '16.000 us', '16.000 us'],
		['bwd', '1', '10.000 us', '10.000 us'],
	]));
	assert.equal(await page.getByTestId('timeline-area-head').innerText(), 'Selection 20.000 us – 60.000 us (40.000 us) · 2 lanes · 7 slices');
	assert.equal(await page.getByTestId('timeline-ruler').getAttribute('data-selection'), '40.000 us');
	await shot(page, 'timeline-area');
	// Esc drops it
	await page.locator('h2').first().click();
	await page.keyboard.press('Escape');
	await retry(async () => assert.equal((await hash()).get('area') ?? '', ''));
	assert.equal(await page.getByTestId('timeline-ruler').getAttribute('data-selection'), '');
});

test('a drag selects the lanes it crosses over the time it spans', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const canvas = page.getByTestId('timeline-canvas');
	const ys = await lanesY();
	const box = await canvas.boundingBox();
	// from 20 us on the worker's lane to 60 us on main's: the gpu lane is not crossed
	await page.mouse.move(box.x + box.width * 0.2, box.y + ys[WORKER].y0 + 26);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * 0.4, box.y + ys[MAIN].y0 + 30, { steps: 3 });
	await page.mouse.move(box.x + box.width * 0.6, box.y + ys[MAIN].y0 + 30, { steps: 3 });
	await page.mouse.up();
	await retry(async () => assert.notEqual((await hash()).get('area') || '', ''));
	const [a, b] = (await hash()).get('area').split(',').map(Number);
	const nsPerPx = 100000 / box.width; // the pointer lands on whole pixels
	assert.ok(Math.abs(a - 20000) <= nsPerPx && Math.abs(b - 60000) <= nsPerPx, `area ${a}-${b}`);
	assert.equal((await hash()).get('area_tracks'), [MAIN, WORKER].map((t) => t.slice(1)).sort().join(','));
	await retry(async () => assert.deepEqual((await areaRows()).map((r) => r[0]), ['step', 'load', 'fwd', 'mm', 'bwd']));
	// a drag on the ruler takes every lane: the kernel [30, 38) joins
	const rb = await page.getByTestId('timeline-ruler').boundingBox();
	await page.mouse.move(box.x + box.width * 0.2, rb.y + 10);
	await page.mouse.down();
	await page.mouse.move(box.x + box.width * 0.6, rb.y + 10, { steps: 4 });
	await page.mouse.up();
	await retry(async () => assert.equal((await hash()).get('area_tracks') ?? '', ''));
	await retry(async () => assert.deepEqual((await areaRows()).map((r) => r[0]), ['step', 'load', 'fwd', 'mm', 'bwd', 'k']));
});

test('W / S zoom and A / D pan, Shift faster, as in Perfetto', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	await until('data-order', (v) => v !== '');
	await page.mouse.move(0, 0); // off the lanes: zoom about the middle
	await page.locator('h2').first().click();
	const win = async () => { const h = await hash(); return `${h.get('start')}-${h.get('end')}`; };
	// [0, 100000] ns: w x0.8, d +10 %, D +50 % (clamped at the end), A -50 % (at 0), W x0.5, S x2, s x1.25 (clamped)
	for (const [k, want] of [['w', '10000-90000'], ['d', '18000-98000'], ['D', '20000-100000'], ['A', '0-80000'],
		['W', '20000-60000'], ['S', '0-80000'], ['s', '0-100000']]) {
		await page.keyboard.press(k.length === 1 && k === k.toUpperCase() ? `Shift+${k}` : k);
		await retry(async () => assert.equal(await win(), want, `after ${k}`));
	}
});

// Clicks the "pin" of the lane whose header starts y0 px down the canvas,
// until the lane order starts with want. The box is measured at each try:
// after a reload the page's header can still be settling above the canvas,
// so a box measured earlier can miss the header. The click handler redraws
// at once, so one that landed shows in data-order when the click resolves.
async function clickPin(y0, want) {
	const canvas = page.getByTestId('timeline-canvas');
	await retry(async () => {
		const box = await canvas.boundingBox();
		await page.mouse.click(box.x + box.width - 20, box.y + y0 + 9);
		const order = await canvas.getAttribute('data-order');
		assert.ok(order.startsWith(want), `order ${order} after a click on the pin at y ${y0}`);
	});
}

test('a lane pinned goes to the top, and stays there on reload', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const ys = await lanesY();
	await clickPin(ys[MAIN].y0, '1/1'); // main's "pin"
	assert.equal(await until('data-order', (v) => v.startsWith('1/1')), '1/1 2/7 1/2');
	assert.equal((await hash()).get('pinned'), MAIN);
	await page.reload();
	assert.equal(await until('data-order', (v) => v.startsWith('1/1')), '1/1 2/7 1/2');
	const ys2 = await lanesY();
	assert.equal(ys2[MAIN].y0, 0);
	await clickPin(0, '2/7');
	assert.equal(await until('data-order', (v) => v.startsWith('2/7')), '2/7 1/2 1/1');
});

test('a counter draws as a line through its samples', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	// Queue/length: 0 from 0, 4 from 25 us, 2 from 50 us, 8 from 75 us (one column each)
	assert.equal(await until('data-counter-steps', (v) => v !== ''), 'c0=0:0 25000:4 50000:2 75000:8');
	// zoomed to 30..60 us: the value in effect at 30 us (4, sampled at 25), then 2 at 50
	await fresh(page, `${url}#file=1&view=timeline&start=30000&end=60000`);
	assert.equal(await until('data-counter-steps', (v) => v.includes('50000')), 'c0=25000:4 50000:2');
});

test('the memory curve has ticks along both axes', async () => {
	await fresh(page, `${url}#file=1&view=memory`);
	const c = page.locator('canvas[data-yticks]').first();
	// bytes up to 4 MiB: 1 MiB steps
	await retry(async () => assert.equal(await c.getAttribute('data-yticks'), '0 MiB|1 MiB|2 MiB|3 MiB|4 MiB'));
	const xt = await c.getAttribute('data-xticks');
	// 100 us over the plot (its width less 100 px of margins, 900..1180 px): 80 px apart is 6.8..8.9 us, so 10 us
	assert.equal(xt, '0 us|10 us|20 us|30 us|40 us|50 us|60 us|70 us|80 us|90 us|100 us');
	await shot(page, 'memory-ticks');
});
