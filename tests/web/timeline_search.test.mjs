// Browser tests of the Timeline's search (web/timeline_search.js) on
// examples/resnet_like.json.gz: `/` focuses the box, typing shows the
// API's count (GET /api/file/1/timeline/find), Enter / n / N / Shift+Enter
// move through the API's matches in order, the window is centred on the
// current match (drawn outlined) and the details show it, the hash keeps
// find/match over a reload, the windows are asked with find= and the marks
// drawn are the answer's, the names list is the API's, a click on a result
// goes there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root, shot as shotOf, fresh, onApi } from './harness.mjs';
import { serving } from './serving.mjs';
import { fmtDur } from '../../web/fmt.js';

const fixture = path.join(root, 'examples/resnet_like.json.gz');
const TEXT = 'aten::mm';

let server, url, page;

serving([fixture], { ready: (ctx) => { ({ server, page } = ctx); url = server.url; } });

const find = async (text) => (await fetch(`${url}api/file/1/timeline/find?find=${encodeURIComponent(text)}&limit=10000`)).json();
const shot = (name) => shotOf(page, name);
const hash = async () => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));

// polls fn() until ok(value) (the page's CSP forbids waitForFunction)
async function until(what, fn, ok) {
	let v = null;
	for (let i = 0; i < 300; i++) {
		v = await fn().catch(() => null);
		if (v !== null && ok(v)) return v;
		await page.waitForTimeout(25);
	}
	throw new Error(`timeline search: ${what} is ${v}`);
}
const canvasAttr = (a) => page.getByTestId('timeline-canvas').getAttribute(a);
const countText = () => page.getByTestId('timeline-search-count').textContent();
const countIs = (t) => until('the count', countText, (v) => v === t);

// the match m is current: the count, the hash, the outline and the details
async function atMatch(k, m, total) {
	await countIs(`${k} of ${total}`);
	await until('data-match', () => canvasAttr('data-match'), (v) => v === String(m.row));
	const h = await until('the hash', hash, (p) => p.get('match') === String(k));
	assert.equal(h.get('find'), TEXT);
	const a = +h.get('start'), b = +h.get('end');
	assert.ok(a <= m.ts && m.ts + m.dur <= b, `match ${k} (${m.ts}+${m.dur}) outside the window ${a}-${b}`);
	// centred: the window's middle is the match's (to a rounding ns), unless
	// the window was held at the trace's start
	if (a > 0) assert.ok(Math.abs((a + b) / 2 - (m.ts + m.dur / 2)) <= 1, `match ${k} not centred in ${a}-${b}`);
	await until('the canvas window', () => canvasAttr('data-start'), (v) => v === String(a));
	assert.notEqual(await until('the outline', () => canvasAttr('data-match-shown'), (v) => v !== ''), '');
	const det = await until('the details', () => page.getByTestId('timeline-event').textContent(), (v) => v.includes(`row ${m.row}`));
	assert.ok(det.startsWith(`${m.name} · ${m.kind} · `), det);
}

test('/ focuses the box, typing shows the API\'s count, Enter, n and N step through the matches', async () => {
	const want = await find(TEXT);
	assert.equal(want.total, 36); // aten::mm: 36 calls in the example (its ops table)
	assert.equal(want.matches.length, 36);
	await fresh(page, `${url}#file=1&view=timeline`);
	await until('data-order', () => canvasAttr('data-order'), (v) => v !== '');
	await page.keyboard.press('/');
	assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'timeline-search');
	const asked = [];
	const onReq = (r) => { if (r.url().includes('/timeline?')) asked.push(new URL(r.url()).searchParams); };
	const offReq = onApi(page, onReq);
	await page.keyboard.type(TEXT);
	await countIs(`${want.total} matches`);
	assert.equal(await page.getByTestId('timeline-search-count').getAttribute('data-total'), String(want.total));
	// the names list: the API's names and counts, in its order
	const names = await page.getByTestId('timeline-search-name').allTextContents();
	assert.deepEqual(names, want.names.map((n) => `${n.name} — ${n.count} match${n.count === 1 ? '' : 'es'}, ${fmtDur(n.total_dur)}`));
	await page.keyboard.press('Enter');
	await atMatch(1, want.matches[0], want.total);
	await page.keyboard.press('Enter');
	await atMatch(2, want.matches[1], want.total);
	await page.keyboard.press('Escape'); // leaves the box: n and N are keys of the page
	await page.keyboard.press('n');
	await atMatch(3, want.matches[2], want.total);
	await page.keyboard.press('N');
	await atMatch(2, want.matches[1], want.total);
	offReq();
	assert.ok(asked.some((p) => p.get('find') === TEXT), 'no timeline request with find=');
});

test('the windows are asked with find= and the marks drawn are the answer\'s', async () => {
	// the window of match 2 (from the last test) as the page asked it
	const h = await hash();
	const W = await page.evaluate(() => document.querySelector('.tl-wrap').clientWidth);
	const d = await (await fetch(`${url}api/file/1/timeline?start_ns=${h.get('start')}&end_ns=${h.get('end')}&px=${W}&find=${encodeURIComponent(TEXT)}`)).json();
	const marks = d.lanes.reduce((n, l) => n + l.items.filter((it) => it.match).length + (l.spans.matches || []).filter((m) => m > 0).length, 0);
	assert.ok(marks > 0);
	assert.equal(await until('data-marked', () => canvasAttr('data-marked'), (v) => v === String(marks)), String(marks));
	const inWindow = await find(TEXT).then((f) => f.matches.filter((m) => m.ts < +h.get('end') && m.ts + m.dur > +h.get('start')));
	const marked = d.lanes.reduce((n, l) => n + l.items.filter((it) => it.match).length + (l.spans.matches || []).reduce((k, m) => k + m, 0), 0);
	assert.equal(marked, inWindow.length);
	await shot('timeline-search');
});

test('a reload keeps find and match; a result\'s click goes to it; Shift+Enter goes back', async () => {
	const want = await find(TEXT);
	const before = await hash();
	await page.reload();
	await countIs(`2 of ${want.total}`);
	assert.equal(await page.getByTestId('timeline-search').inputValue(), TEXT);
	await atMatch(2, want.matches[1], want.total);
	const after = await hash();
	assert.equal(after.get('start'), before.get('start')); // the hash's window is kept
	assert.equal(after.get('end'), before.get('end'));
	await page.locator('[data-testid="timeline-search-result"][data-k="7"]').click();
	await atMatch(7, want.matches[6], want.total);
	await page.getByTestId('timeline-search').focus();
	await page.keyboard.press('Shift+Enter');
	await atMatch(6, want.matches[5], want.total);
});

test('a new text: the count follows the API; no match; clearing it', async () => {
	await fresh(page, `${url}#file=1&view=timeline`); // a new hash: the page renders again
	const box = page.getByTestId('timeline-search');
	await until('the box', () => box.inputValue(), (v) => v === '');
	await until('data-order', () => canvasAttr('data-order'), (v) => v !== '');
	const mm = await find('MM');
	assert.ok(mm.total > 36 && mm.names_total > 1);
	await box.fill('MM');
	await countIs(`${mm.total} matches`);
	await page.keyboard.press('Shift+Enter'); // from none: the last match
	await countIs(`${mm.total} of ${mm.total}`);
	assert.equal(await canvasAttr('data-match'), String(mm.matches[mm.total - 1].row));
	await box.fill('no_such_slice_name');
	await countIs('no matches');
	assert.equal((await hash()).get('find'), 'no_such_slice_name');
	await box.fill('');
	await countIs('');
	const h = await hash();
	assert.equal(h.get('find'), null);
	assert.equal(h.get('match'), null);
	assert.equal(await until('data-marked', () => canvasAttr('data-marked'), (v) => v === '0'), '0');
});
