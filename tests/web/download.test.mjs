// Browser tests of the Timeline's "Download trace" and of "Open in
// Perfetto" without the network, on tests/server/timeline_more.json. The
// browser tests run offline: ui.perfetto.dev cannot be reached, so the page
// must say so and offer the download. The downloaded files are compared
// with the fixture as node parses it (download_expect.mjs, whose checks
// the static site's test runs too).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, launchBrowser, fresh, retry } from './harness.mjs';
import { checkWholeDownload, checkWindowDownload, download, downloadFixture as fixture } from './download_expect.mjs';

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
	const got = await download(page, btn);
	assert.equal(got.name, 'timeline_more.json');
	assert.deepEqual(got.json.traceEvents, source.traceEvents);
	assert.equal(popups, 0);
});

test('Download trace (whole): every event and top-level key as the file has them', () => checkWholeDownload(page, url));

test('Download trace (window): the window as trace slice --from --to cuts it, fields as they were', () => checkWindowDownload(page, url));
