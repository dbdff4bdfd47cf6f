// Browser test of the Timeline's merged items drawn as pixels
// (web/timeline_pixels.js) on a synthetic trace (`gpuprof synth --size
// 2M`) seen whole: the page's window is asked again from the API here, and
// for merged spans that stand alone in their depth row (no other item
// within 3 px), the canvas pixel in the middle of the span's first column
// must be the theme's muted colour (#5d6677: 93, 102, 119) at the alpha
// the page documents, 0.35 + 0.65 x busy / extent (computed here from the
// answer), and the pixel rows just above and below the row's band
// (the 1 px gaps between depth rows) must be empty. A merged run of
// instants (the lane's instant_runs columns) with no other instant within
// 3 px is the muted colour, opaque, and hovering it shows its count.
// Hovering a span shows its card
// (count, busy time) and a click shows its details: spans have no hit box
// of their own, the page finds them from the answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gpuprof, fresh, untilCanvas, retry, shot } from './harness.mjs';
import { serving } from './serving.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gpuprof-tlpixels-'));
const synth = path.join(dir, 'synth.json');
execFileSync(gpuprof, ['synth', '--size', '2M', '-o', synth], { stdio: 'ignore' });
let server, page;
serving([synth], {
	ready: (ctx) => { ({ server, page } = ctx); },
	cleanup: () => rmSync(dir, { recursive: true, force: true }),
});

// the page's layout (web/timeline.js): a lane's header, its instants row
// when it has instants, then 16 px a depth
const HEAD = 18, IROW = 10, ROW = 16;
const MUTED = [93, 102, 119];

const pixel = (x, y) => page.getByTestId('timeline-canvas').evaluate((c, [xx, yy]) => {
	const d = window.devicePixelRatio || 1;
	return [...c.getContext('2d').getImageData(Math.floor(xx * d), Math.floor(yy * d), 1, 1).data];
}, [x, y]);

test('merged spans and instants are drawn as pixels, found by hover and click', async () => {
	await fresh(page, `${server.url}#file=1&view=timeline`);
	const canvas = page.getByTestId('timeline-canvas');
	await untilCanvas(page, 'data-items', (v) => +v > 0);
	const W = await canvas.evaluate((c) => parseFloat(c.style.width));
	const start = +(await canvas.getAttribute('data-start')), end = +(await canvas.getAttribute('data-end'));
	const d = await (await fetch(`${server.url}api/file/1/timeline?start_ns=${start}&end_ns=${end}&px=${W}`)).json();
	const ys = Object.fromEntries((await canvas.getAttribute('data-lanes-y')).split(' ').map((p) => [p.split(':')[0], +p.split(':')[1].split('-')[0]]));
	const xOf = (ns) => (ns - start) / (end - start) * W;
	let spans = 0, runs = 0, hovered = false;
	for (const l of d.lanes) {
		assert.ok(`t${l.track}` in ys, `lane of track ${l.track} drawn`);
		const irow = l.instant_events > 0 ? IROW : 0, top = ys[`t${l.track}`] + HEAD;
		const sp = l.spans;
		const spanCols = (i) => [Math.max(0, xOf(sp.ts[i])), Math.min(W, xOf(sp.end[i]))];
		for (let i = 0; i < sp.ts.length && spans < 12; i++) {
			const [a, b] = spanCols(i), depth = sp.depth[i];
			const apart = ([c0, c1]) => c1 < a - 3 || c0 > Math.max(a + 1, b) + 3;
			const alone = sp.ts.every((_, j) => j === i || sp.depth[j] !== depth || apart(spanCols(j)))
				&& l.items.every((o) => o.depth !== depth || apart([Math.max(0, xOf(o.ts)), Math.min(W, xOf(o.ts + o.dur))]));
			if (!alone) continue;
			const y = top + irow + depth * ROW;
			const alpha = Math.round(255 * (0.35 + 0.65 * Math.min(1, sp.busy_ns[i] / Math.max(1, sp.end[i] - sp.ts[i]))));
			assert.deepEqual(await pixel(a + 0.5, y + ROW / 2), [...MUTED, alpha], `span at ${sp.ts[i]} ns, depth ${depth}`);
			assert.equal((await pixel(a + 0.5, y))[3], 0, 'the gap above the row is empty');
			assert.equal((await pixel(a + 0.5, y + ROW - 1))[3], 0, 'the gap below the row is empty');
			spans++;
			if (!hovered) {
				const box = await canvas.boundingBox();
				await page.mouse.move(box.x + a + 0.5, box.y + y + ROW / 2);
				await retry(async () => {
					const t = await page.getByTestId('timeline-hover').innerText();
					assert.match(t, new RegExp(`^${sp.count[i]} short events\\n`));
				});
				await page.mouse.click(box.x + a + 0.5, box.y + y + ROW / 2);
				await retry(async () => assert.match(await page.getByTestId('timeline-event').innerText(), new RegExp(`^${sp.count[i]} short events merged · `)));
				hovered = true;
			}
		}
		const ir = l.instant_runs;
		for (let i = 0; i < ir.ts.length && runs < 4; i++) {
			const x0 = xOf(ir.ts[i]) - 1;
			// (a single instant is drawn over the runs: '[memory]' ones orange)
			if (l.instants.some((o) => Math.abs(xOf(o.ts) - x0) < 4) || ir.ts.some((t, j) => j !== i && Math.abs(xOf(t) - x0) < 4)) continue;
			assert.deepEqual(await pixel(x0 + 0.5, top + IROW / 2), [...MUTED, 255], `instants at ${ir.ts[i]} ns`);
			if (!runs) {
				const box = await canvas.boundingBox();
				await page.mouse.move(box.x + x0 + 0.5, box.y + top + IROW / 2);
				await retry(async () => assert.match(await page.getByTestId('timeline-hover').innerText(), new RegExp(`^${ir.count[i]} instants\\n`)));
			}
			runs++;
		}
	}
	assert.ok(spans >= 6, `${spans} lone spans checked`);
	assert.ok(runs >= 1, `${runs} runs of instants checked`);
	assert.ok(hovered);
	await shot(page, 'timeline-pixels');
});
