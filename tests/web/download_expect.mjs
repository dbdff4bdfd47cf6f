// download_expect: the Timeline's "Download trace" checked on a page that
// shows tests/server/timeline_more.json as file 1 (at base, the page's
// URL), for both backends: the server (download.test.mjs) and the static
// site (site.test.mjs). The downloaded files are compared with the fixture
// as this module parses it (node's JSON.parse of the file), not with
// anything the page computes: whole, every event and top-level key as the
// file has them; a window, the fixture's events at the positions listed by
// hand below.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, fresh, retry } from './harness.mjs';

export const downloadFixture = path.join(root, 'tests/server/timeline_more.json');
const source = JSON.parse(readFileSync(downloadFixture, 'utf8'));

// The file a click on btn saves (the page needs acceptDownloads).
export async function download(page, btn) {
	const [d] = await Promise.all([page.waitForEvent('download'), btn.click()]);
	const file = await d.path();
	return { name: d.suggestedFilename(), json: JSON.parse(readFileSync(file, 'utf8')) };
}

// open(page, url): shows url (default: a fresh load; the static site
// opens its file first, then sets the hash).
export async function checkWholeDownload(page, base, open = fresh) {
	await open(page, `${base}#file=1&view=timeline`);
	const dl = page.getByTestId('timeline-download');
	await retry(async () => assert.equal(await dl.textContent(), 'Download trace (whole)'));
	const got = await download(page, dl);
	assert.equal(got.name, 'timeline_more.json');
	assert.deepEqual(got.json.traceEvents, source.traceEvents);
	assert.deepEqual(Object.keys(got.json), Object.keys(source));
}

export async function checkWindowDownload(page, base, open = fresh) {
	// [25, 65) µs from the start (1000 µs): host events starting inside and
	// the GPU work they launched: the [memory] instant at 1040 (its Bytes,
	// Total Allocated, Addr... args), the mark at 1050, the second
	// cudaLaunchKernel at 1060 and its kernel k0 at 1070, the counter sample
	// at 1050, and the 12 metadata events (positions 0-11)
	await open(page, `${base}#file=1&view=timeline&start=25000&end=65000`);
	const dl = page.getByTestId('timeline-download');
	await retry(async () => assert.equal(await dl.textContent(), 'Download trace (window)'));
	const got = await download(page, dl);
	assert.equal(got.name, 'timeline_more.25000-65000ns.json');
	const want = [...Array(12).keys(), 21, 22, 23, 24, 33].map((i) => source.traceEvents[i]);
	assert.deepEqual(got.json.traceEvents, want);
	assert.equal(got.json.traceEvents[12].args['Total Reserved'], 2048);
	assert.equal(got.json.traceEvents[15].name, 'k0');
}
