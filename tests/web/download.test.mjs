// Browser tests of the Timeline's "Download trace" and of "Open in
// Perfetto" without the network, on tests/server/timeline_more.json. The
// browser tests run offline: ui.perfetto.dev cannot be reached, so the page
// must say so and offer the download. The downloaded files are compared
// with the fixture as this test parses it (node's JSON.parse of the file),
// not with anything the page computes: whole, every event and top-level key
// as the file has them; a window, the fixture's events at the positions
// listed by hand below.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, startServer, launchBrowser, newPage, fresh, retry } from './harness.mjs';

const fixture = path.join(root, 'tests/server/timeline_more.json');
const source = JSON.parse(readFileSync(fixture, 'utf8'));

let server, url, browser, page;

before(async () => {
	server = await startServer([fixture]);
	url = server.url;
	browser = await launchBrowser();
	page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
	page.setDefaultTimeout(10000);
	page.on('pageerror', (e) => { throw e; });
});

after(async () => {
	await browser?.close();
	await server?.stop();
});

async function download(btn) {
	const [d] = await Promise.all([page.waitForEvent('download'), btn.click()]);
	const file = await d.path();
	return { name: d.suggestedFilename(), json: JSON.parse(readFileSync(file, 'utf8')) };
}

test('without the network: a clear note, and the Perfetto button downloads the trace at once', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const note = page.getByTestId('timeline-perfetto-note');
	await retry(async () => assert.match(await note.textContent(), /ui\.perfetto\.dev cannot be reached from this page: use Download trace/));
	const btn = page.getByTestId('timeline-perfetto');
	assert.equal(await btn.textContent(), 'Download for Perfetto (cannot reach ui.perfetto.dev)');
	assert.equal(await page.getByTestId('timeline-download').isDisabled(), false);
	// no Perfetto tab, no 30 s wait: the file itself, every event as written
	let popups = 0;
	page.on('popup', () => popups++);
	const got = await download(btn);
	assert.equal(got.name, 'timeline_more.json');
	assert.deepEqual(got.json.traceEvents, source.traceEvents);
	assert.equal(popups, 0);
});

test('Download trace (whole): every event and top-level key as the file has them', async () => {
	await fresh(page, `${url}#file=1&view=timeline`);
	const dl = page.getByTestId('timeline-download');
	await retry(async () => assert.equal(await dl.textContent(), 'Download trace (whole)'));
	const got = await download(dl);
	assert.equal(got.name, 'timeline_more.json');
	assert.deepEqual(got.json.traceEvents, source.traceEvents);
	assert.deepEqual(Object.keys(got.json), Object.keys(source));
});

test('Download trace (window): the window as trace slice --from --to cuts it, fields as they were', async () => {
	// [25, 65) µs from the start (1000 µs): host events starting inside and
	// the GPU work they launched: the [memory] instant at 1040 (its Bytes,
	// Total Allocated, Addr... args), the mark at 1050, the second
	// cudaLaunchKernel at 1060 and its kernel k0 at 1070, the counter sample
	// at 1050, and the 12 metadata events (positions 0-11)
	await fresh(page, `${url}#file=1&view=timeline&start=25000&end=65000`);
	const dl = page.getByTestId('timeline-download');
	await retry(async () => assert.equal(await dl.textContent(), 'Download trace (window)'));
	const got = await download(dl);
	assert.equal(got.name, 'timeline_more.25000-65000ns.json');
	const want = [...Array(12).keys(), 21, 22, 23, 24, 33].map((i) => source.traceEvents[i]);
	assert.deepEqual(got.json.traceEvents, want);
	assert.equal(got.json.traceEvents[12].args['Total Reserved'], 2048);
	assert.equal(got.json.traceEvents[15].name, 'k0');
});
