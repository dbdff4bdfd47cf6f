// Browser tests of the Diff page: `gpuprof serve` with synthetic pairs
// written here by `gpuprof synth` (a trace, a copy with the sgemm kernels
// twice as long, a copy with step 5 slowed by 3 ms) and an Nsight Compute
// report, checked against the CLI on the same files: the summary line
// against `gpuprof diff --format markdown`'s (and the text table's p and U),
// the steps table cell for cell against the text table, every list of top
// regressions and improvements against the markdown report's tables (also
// with --top 10, --exact-names, --step 4-6 and the sides swapped), the strip
// plot's dots against `gpuprof steps` of each side (values, one linear
// scale, the server's medians) and the slowed step's 3 ms (a hand-computed
// constant), the links of a row to each side's page (and following one),
// the disabled files of another kind, and the hint of a one-trace server.
// Run by run.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, gpuprof, cliJson, cliText, startServer, launchBrowser, newPage, shot, retry, fresh, waitForApi } from './harness.mjs';
import { execFileSync } from 'node:child_process';
import { diffExpect } from './diff_expect.mjs';

const ncu = path.join(root, 'tests/golden/_inputs/tiny.ncu-rep');
const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-diff-web-'));
const a = path.join(dir, 'a.json'), k = path.join(dir, 'k.json'), sl = path.join(dir, 's.json');
const synth = (...args) => execFileSync(gpuprof, ['-q', 'synth', '--model', 'tiny', '--steps', '6', ...args]);
synth('-o', a);
synth('--scale-kernel', 'sgemm=2', '-o', k);
synth('--slow-step', '5=3ms', '-o', sl);

let browser, page;

before(async () => {
	browser = await launchBrowser();
	page = await newPage(browser);
});

after(async () => {
	await browser?.close();
	rmSync(dir, { recursive: true, force: true });
});

const TITLES = { ops: 'Operators', ops_shape: 'Operators by input shape', kernels: 'Kernels', memory: 'Memory peaks', comm: 'Communication', gpus: 'GPU metrics' };
const PRIMARY = { ops: 'Device Self', ops_shape: 'Device Self', kernels: 'Total', memory: 'Peak Allocated', comm: 'Latency', gpus: 'GPU Utilization' };
const KEY = { ops: 'Name', ops_shape: 'Name [Input Shape]', kernels: 'Name', memory: 'Device', comm: 'Collective', gpus: 'GPU' };

const rowsOf = (testid) => page.getByTestId(testid).locator('tbody tr')
	.evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(0, -1).map((td) => td.textContent)));
const listIds = () => page.locator('[data-testid^=diff-regressions-], [data-testid^=diff-improvements-]')
	.evaluateAll((ts) => ts.map((t) => t.dataset.testid));

// Everything the page shows of the pair against the CLI with args: the
// summary is the markdown's line with the text table's p, U and test (and
// want's p and U when given, hand-checked constants).
async function assertPage(args, want = {}) {
	const { md, total, tot, line } = diffExpect(args);
	if (want.p) assert.equal(tot.p, want.p);
	if (want.u) assert.equal(tot.U, want.u);
	await retry(async () => assert.equal(await page.getByTestId('diff-summary').textContent(), line));
	assert.deepEqual(await rowsOf('diff-steps'), total.map((r) => ['Part', 'Base Mean', 'New Mean', 'Δ Mean', 'Δ %', 'Base Median', 'New Median', 'p', 'Test', 'Verdict'].map((c) => r[c])));
	const ids = [];
	for (const [name, title] of Object.entries(TITLES)) {
		for (const [kind, head] of [['regressions', 'Top regressions: '], ['improvements', 'Top improvements: ']]) {
			const rows = md.tables[head + title];
			if (!rows) continue;
			ids.push(`diff-${kind}-${name}`);
			const m = PRIMARY[name];
			assert.deepEqual(await rowsOf(`diff-${kind}-${name}`), rows.map((r) => [r[KEY[name]], r.Status, r[`Base ${m}`], r[`New ${m}`], r[`Δ ${m}`], r[`Δ ${m} %`]]), `${kind} ${name}`);
		}
	}
	assert.deepEqual((await listIds()).sort(), ids.sort());
	return md;
}

// The dots of a lane: [{step, value, cx}]; its median and mean lines' x and values.
const lane = (side) => page.getByTestId('diff-steps-chart').locator(`g[data-side=${side}]`).evaluate((g) => ({
	dots: [...g.querySelectorAll('circle')].map((c) => ({ step: c.dataset.step, value: +c.dataset.value, cx: +c.getAttribute('cx') })),
	median: [...g.querySelectorAll('line')].filter((l) => l.dataset.median).map((l) => ({ v: +l.dataset.median, x: +l.getAttribute('x1') }))[0],
	mean: [...g.querySelectorAll('line')].filter((l) => l.dataset.mean).map((l) => ({ v: +l.dataset.mean, x: +l.getAttribute('x1') }))[0],
}));

// Both lanes: the dots are the per-step values of `gpuprof steps` of each
// side (part key), and every x (dots, medians, means) is one linear map.
async function assertChart(files, key, diffJson, part = 'total') {
	const lanes = [await lane('base'), await lane('new')];
	const pts = [];
	files.forEach((f, i) => {
		const want = cliJson('steps', f).steps.filter((r) => /^\d+$/.test(r.step)).map((r) => ({ step: r.step, value: r[key] }));
		assert.deepEqual(lanes[i].dots.map((d) => ({ step: d.step, value: d.value })), want);
		const prow = diffJson.steps.find((r) => r.part === part);
		const side = i ? 'new' : 'base';
		assert.equal(lanes[i].median.v, prow[`${side}_median_ns`]);
		assert.equal(lanes[i].mean.v, prow[`${side}_mean_ns`]);
		pts.push(...lanes[i].dots.map((d) => [d.value, d.cx]), [lanes[i].median.v, lanes[i].median.x], [lanes[i].mean.v, lanes[i].mean.x]);
	});
	const [lo, hi] = [pts.reduce((m, p) => (p[0] < m[0] ? p : m)), pts.reduce((m, p) => (p[0] > m[0] ? p : m))];
	const kx = (hi[1] - lo[1]) / (hi[0] - lo[0]);
	assert.ok(kx > 0);
	for (const [v, x] of pts) assert.ok(Math.abs(lo[1] + kx * (v - lo[0]) - x) < 1e-6, `x of ${v}: ${x}`);
	return lanes;
}

test('the Diff page of a scaled kernel, against gpuprof diff', async () => {
	const server = await startServer([a, k, sl, ncu]);
	try {
		await page.goto(`${server.url}#view=overview`);
		const tab = page.locator('#tabs a[data-view=diff]');
		await retry(async () => assert.equal(await tab.isHidden(), false));
		await tab.click();
		await page.getByTestId('diff-steps-chart').waitFor();
		assert.match(await page.evaluate(() => location.hash), /view=diff/);
		assert.equal(await page.locator('#tabs a.active').textContent(), 'Diff');
		// BASE and NEW: files 1 and 2; the report can be BASE (reports
		// compare), not the NEW of a trace
		assert.equal(await page.getByTestId('diff-base').inputValue(), '1');
		assert.equal(await page.getByTestId('diff-new').inputValue(), '2');
		const disabled = (id) => page.getByTestId(id).locator('option').evaluateAll((os) => os.map((o) => [o.value, o.disabled]));
		assert.deepEqual(await disabled('diff-base'), [['1', false], ['2', false], ['3', false], ['4', false]]);
		assert.deepEqual(await disabled('diff-new'), [['1', false], ['2', false], ['3', false], ['4', true]]);

		const d = cliJson('diff', a, k);
		const tot = d.steps.find((r) => r.part === 'total');
		await assertPage([a, k], { p: '0.0161224', u: '2.5' });
		assert.equal(tot.test, 'normal');
		assert.equal(await page.getByTestId('diff-summary').getAttribute('data-verdict'), 'regression');
		// the sgemm kernel: doubled, so its delta is its base total and 100 %
		const kb = cliJson('kernels', a).kernels.find((r) => r.name.includes('sgemm'));
		const sg = (await rowsOf('diff-regressions-kernels'))[0];
		assert.equal(sg[0], 'ampere_sgemm_tn');
		assert.equal(sg[2], cliText('diff', a, k).match(/ampere_sgemm_tn +increase +6 +6 +0 +(\S+ \S+)/)[1]);
		assert.equal(sg[4], sg[2]);
		assert.equal(sg[5], '100');
		assert.equal(kb.total_ns * 2, cliJson('kernels', k).kernels.find((r) => r.name === kb.name).total_ns);
		await assertChart([a, k], 'total_ns', d);
		await shot(page, 'diff');

		// the links of a row: the matching page of each side
		const links = (testid) => page.getByTestId(testid).locator('tbody tr').first().locator('a')
			.evaluateAll((as) => as.map((x) => [x.dataset.testid, x.getAttribute('href')]));
		assert.deepEqual(await links('diff-regressions-kernels'), [['link-base', '#file=1&view=kernels&q=ampere'], ['link-new', '#file=2&view=kernels&q=ampere']]);
		assert.deepEqual(await links('diff-regressions-ops'), [['link-base', '#file=1&view=ops&sel=aten%3A%3Aaddmm'], ['link-new', '#file=2&view=ops&sel=aten%3A%3Aaddmm']]);
		assert.deepEqual(await links('diff-regressions-ops_shape'), [['link-base', '#file=1&view=ops&group=op%2Bshape&sel=aten%3A%3Aaddmm'],
			['link-new', '#file=2&view=ops&group=op%2Bshape&sel=aten%3A%3Aaddmm']]);
		assert.deepEqual(await links('diff-steps'), [['link-base', '#file=1&view=steps'], ['link-new', '#file=2&view=steps']]);
		// following NEW's kernel link: file 2's Kernels page, searched, the sgemm row there
		await page.getByTestId('diff-regressions-kernels').locator('tbody tr').first().getByTestId('link-new').click();
		await page.getByTestId('table-kernels').waitFor();
		assert.equal(await page.getByTestId('search-kernels').inputValue(), 'ampere');
		const knames = await page.getByTestId('table-kernels').locator('tbody tr td:first-child').allTextContents();
		assert.deepEqual(knames, cliJson('kernels', k).kernels.filter((r) => r.name.toLowerCase().includes('ampere')).map((r) => r.name));
		assert.equal(await page.getByTestId('file-select').inputValue(), '2');
		// and BASE's operator link: file 1's Operators page with aten::addmm's panel
		await page.goBack();
		await page.getByTestId('diff-regressions-ops').waitFor();
		await page.getByTestId('diff-regressions-ops').locator('tbody tr').first().getByTestId('link-base').click();
		await page.getByTestId('table-operators').waitFor();
		await retry(async () => assert.equal(await page.locator('[data-testid=table-operators] tr.selected td:first-child').textContent(), 'aten::addmm'));
		assert.equal(await page.getByTestId('file-select').inputValue(), '1');

		// exact names: the request says so; kernel links select the name as written
		await fresh(page, `${server.url}#view=diff&base=1&new=2`);
		await page.getByTestId('diff-steps-chart').waitFor();
		const req = waitForApi(page, (r) => r.url().includes('/api/diff?'));
		await page.getByTestId('diff-exact').check();
		assert.match((await req).url(), /\/api\/diff\?base=1&new=2&exact_names=1$/);
		await assertPage(['--exact-names', a, k], { p: '0.0161224', u: '2.5' });
		const raw = cliJson('diff', '--exact-names', a, k).kernels[0].name;
		assert.deepEqual(await links('diff-regressions-kernels'), [['link-base', `#file=1&view=kernels&sel=${encodeURIComponent(raw).replace(/%20/g, '+')}`],
			['link-new', `#file=2&view=kernels&sel=${encodeURIComponent(raw).replace(/%20/g, '+')}`]]);

		// ten rows per list
		await fresh(page, `${server.url}#view=diff&base=1&new=2&top=10`);
		await page.getByTestId('diff-steps-chart').waitFor();
		await assertPage(['--top', '10', a, k]);

		// swapped: NEW is the base now
		await fresh(page, `${server.url}#view=diff&base=1&new=2`);
		await page.getByTestId('diff-steps-chart').waitFor();
		await page.getByTestId('diff-swap').click();
		await retry(async () => assert.equal(await page.getByTestId('diff-base').inputValue(), '2'));
		await assertPage([k, a]);
		assert.equal(await page.getByTestId('diff-summary').getAttribute('data-verdict'), 'improvement');
		await assertChart([k, a], 'total_ns', cliJson('diff', k, a));
	} finally {
		await server.stop();
	}
});

test('a slowed step: the strip plot shows it, the verdict is noise; parts and a step selection', async () => {
	const server = await startServer([a, k, sl]);
	try {
		await fresh(page, `${server.url}#view=diff`);
		await page.getByTestId('diff-steps-chart').waitFor();
		await page.getByTestId('diff-new').selectOption('3');
		await retry(async () => assert.match(await page.evaluate(() => location.hash), /new=3/));
		const d = cliJson('diff', a, sl);
		const tot = d.steps.find((r) => r.part === 'total');
		assert.equal(tot.verdict, 'noise');
		await assertPage([a, sl]);
		assert.equal(await page.getByTestId('diff-summary').getAttribute('data-verdict'), 'noise');
		const [b, n] = await assertChart([a, sl], 'total_ns', d);
		// step 5 of NEW is 3 ms later, the others as BASE's
		assert.deepEqual(n.dots.map((x, i) => x.value - b.dots[i].value), b.dots.map((x) => (x.step === '5' ? 3000000 : 0)));

		// another part: the per-step kernel times
		await page.getByTestId('diff-part').selectOption('kernel');
		await retry(async () => assert.match(await page.evaluate(() => location.hash), /part=kernel/));
		await page.getByTestId('diff-steps-chart').waitFor();
		await retry(() => assertChart([a, sl], 'kernel_ns', d, 'kernel'));

		// steps 4–6 of each side: the request and the CLI's --step 4-6
		const req = waitForApi(page, (r) => r.url().includes('/api/diff?'));
		await fresh(page, `${server.url}#view=diff&base=1&new=3&step=4-6`);
		assert.match((await req).url(), /\/api\/diff\?base=1&new=3&step=4-6$/);
		await page.getByTestId('diff-steps-chart').waitFor();
		const ds = cliJson('--step', '4-6', 'diff', a, sl);
		const ts = ds.steps.find((r) => r.part === 'total');
		await assertPage(['--step', '4-6', a, sl]);
		assert.match(await page.getByTestId('diff-selection').textContent(), /^Steps 4–6 of each side/);
		assert.deepEqual((await lane('new')).dots.map((x) => x.step), ['4', '5', '6']);
		assert.equal((await lane('base')).median.v, ts.base_median_ns);
	} finally {
		await server.stop();
	}
});

test('one trace: no Diff tab, and the page says how to get a pair', async () => {
	const server = await startServer([a, ncu]);
	try {
		await fresh(page, `${server.url}#view=overview`);
		await page.getByTestId('card-steps').waitFor();
		assert.equal(await page.locator('#tabs a[data-view=diff]').isHidden(), true);
		await fresh(page, `${server.url}#view=diff`);
		const msg = page.getByTestId('diff-message');
		await msg.waitFor();
		const text = await msg.textContent();
		assert.match(text, /compares two loaded files of one kind/);
		assert.match(text, /only one PyTorch trace is loaded/);
		assert.match(text, /gpuprof serve base\.pt\.trace\.json new\.pt\.trace\.json/);
		assert.match(text, /Open trace/);
		assert.equal(await page.getByTestId('diff-steps-chart').count(), 0);
	} finally {
		await server.stop();
	}
});
