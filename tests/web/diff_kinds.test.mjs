// Browser tests of the Diff page of two Nsight Compute reports and of two
// Nsight Systems files: `gpuprof serve` with the ncu diff pair of the
// golden inputs (tests/ncu/mkreport.py --diff-pair: the gemm launch 4 us
// -> 5 us, registers 64 -> 72), two run directories (a copy with the
// inference range's GPU time 1800 -> 2700 ns and resize's host time
// 850 -> 1050 ns, as the golden case nsys-diff-runs makes them), two SQLite
// exports and a trace. Every list of top regressions and improvements and
// the gates table are checked cell for cell against `gpuprof diff --format
// markdown` of the same files, and a few cells against those hand-computed
// constants; also the selectors (files of another family disabled for
// NEW), the request's parameters and the links to each side's page.
// Run by run.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { root, gpuprof, startServer, launchBrowser, newPage, retry, fresh, waitForApi, serveOnly } from './harness.mjs';

const inputs = path.join(root, 'tests/golden/_inputs');
const nb = path.join(inputs, 'ncu-diff-base.ncu-rep'), nn = path.join(inputs, 'ncu-diff-new.ncu-rep');
const dir = mkdtempSync(path.join(tmpdir(), 'gpuprof-diffkinds-web-'));
const rb = path.join(dir, 'rb'), rn = path.join(dir, 'rn');
cpSync(path.join(root, 'tests/nsys/run_small'), rb, { recursive: true });
cpSync(path.join(root, 'tests/nsys/run_small'), rn, { recursive: true });
const edit = (f, from, to) => {
	const t = readFileSync(f, 'utf8');
	assert.ok(t.includes(from), `${f}: ${from}`);
	writeFileSync(f, t.replace(from, to));
};
edit(path.join(rn, 'stats/nsys_nvtx_gpu_proj_trace.csv'), '\n:inference,2720,1800,', '\n:inference,2720,2700,');
edit(path.join(rn, 'stats/nsys_nvtx_pushpop_trace.csv'), '\n51200,52050,850,0,850,:resize', '\n51200,52250,1050,0,1050,:resize');
const sa = path.join(dir, 'a.sqlite'), sb = path.join(dir, 'b.sqlite');
execFileSync('python3', ['-c', "import sys, shutil, sqlite3; sys.path.insert(0, sys.argv[2]); import check_sqlite as c; c.make_tiny(sys.argv[1] + '/a.sqlite', True); shutil.copy(sys.argv[1] + '/a.sqlite', sys.argv[1] + '/b.sqlite'); db = sqlite3.connect(sys.argv[1] + '/b.sqlite'); db.execute('update NVTX_EVENTS set end = 205 where start = 110'); db.commit()", dir, path.join(root, 'tests/nsys')]);
const tr = path.join(dir, 't.json');
execFileSync(gpuprof, ['-q', 'synth', '--model', 'tiny', '--steps', '4', '-o', tr]);

let browser, page;
before(async () => {
	browser = await launchBrowser();
	page = await newPage(browser);
});
after(async () => {
	await browser?.close();
	rmSync(dir, { recursive: true, force: true });
});

// `gpuprof diff ARGS`'s output; its exit status 1 (a gate tripped) or 0.
function cliDiff(...args) {
	const r = spawnSync(gpuprof, ['diff', ...args], { encoding: 'utf8' });
	assert.ok(r.status === 0 || r.status === 1, `gpuprof diff ${args.join(' ')}: ${r.stderr}`);
	return r.stdout;
}

// The markdown report's tables by title: {cols, rows (arrays of cells)}.
function mdTables(out) {
	const tables = {};
	for (const block of out.split(/\n(?=### )/)) {
		const title = /^### (.*)/.exec(block)?.[1];
		const lines = block.split('\n').filter((l) => l.startsWith('| '));
		if (!title || lines.length < 1) continue;
		const split = (l) => l.slice(2, -2).split(' | ');
		tables[title] = { cols: split(lines[0]), rows: lines.slice(1).map(split) };
	}
	return tables;
}

// A table of the page: its column titles and its rows' cells (without the
// links column of the lists).
const pageTable = (testid, links) => page.getByTestId(testid).evaluate((t, links) => {
	const cut = (cells) => [...cells].slice(0, links ? -1 : undefined).map((c) => c.textContent);
	return { cols: cut(t.tHead.rows[0].cells), rows: [...t.tBodies[0].rows].map((r) => cut(r.cells)) };
}, links);
const listIds = () => page.locator('[data-testid^=diff-regressions-], [data-testid^=diff-improvements-]')
	.evaluateAll((ts) => ts.map((t) => t.dataset.testid));

// Every list and the gates table of the page against the markdown report
// of `gpuprof diff ARGS`; the markdown's tables.
async function assertLists(names, args) {
	const md = mdTables(cliDiff('--format', 'markdown', ...args));
	const ids = [];
	for (const [name, title] of names) {
		for (const [kind, head] of [['regressions', 'Top regressions: '], ['improvements', 'Top improvements: ']]) {
			const want = md[head + title];
			if (!want) continue;
			ids.push(`diff-${kind}-${name}`);
			assert.deepEqual(await pageTable(`diff-${kind}-${name}`, true), want, `${kind} ${name}`);
		}
	}
	await retry(async () => assert.deepEqual((await listIds()).sort(), ids.sort()));
	const gates = md['Gates (--fail-if)'];
	if (gates) assert.deepEqual(await pageTable('diff-gates', false), gates);
	else assert.equal(await page.getByTestId('diff-gates').count(), 0);
	return md;
}

const disabled = (id) => page.getByTestId(id).locator('option').evaluateAll((os) => os.map((o) => o.disabled));

test('the Diff page of two Nsight Compute reports, against gpuprof diff', async () => {
	// files 1, 2 the reports, 3 a trace
	const server = await startServer([nb, nn, tr]);
	try {
		const gate = 'ncu[gemm].duration_ns>+24.9%', regs = 'ncu.registers_per_thread>+2';
		const req = waitForApi(page, (r) => r.url().includes('/api/diff?'));
		await fresh(page, `${server.url}#view=diff&base=1&new=2&gate=${encodeURIComponent(gate)}`);
		assert.equal(new URL((await req).url()).search, `?base=1&new=2&fail_if=${encodeURIComponent(gate).replace(/%20/g, '+')}`);
		await page.getByTestId('diff-gates').waitFor();
		const ncuTables = [['launches', 'Launches'], ['hints', 'Hints']];
		const md = await assertLists(ncuTables, ['--fail-if', gate, nb, nn]);
		// the gemm launch: 4 us -> 5 us (+25 %), registers 64 -> 72; the gate trips
		const l = md['Top regressions: Launches'];
		assert.deepEqual(l.rows[0].slice(0, 5), ['gemm grid (8, 1, 1) block (256, 1, 1) #0', 'increase', '4.000 us', '5.000 us', '1.000 us']);
		assert.deepEqual([l.rows[0][14], l.rows[0][15], l.rows[0][16], l.rows[0].at(-1)], ['64', '72', '8', '25']);
		assert.deepEqual(md['Gates (--fail-if)'].rows[0].slice(-4), ['25 %', '24.9 %', '%', 'tripped']);
		assert.match(await page.getByTestId('diff-summary').textContent(), /launches matched: 3, launches added: 0, launches removed: 0, gates: 1, gates tripped: 1/);
		// NEW: only the other report can be picked; BASE: any file with a diff view
		assert.deepEqual(await disabled('diff-new'), [false, false, true]);
		assert.deepEqual(await disabled('diff-base'), [false, false, false]);
		// the links of a row: each side's Nsight Compute page
		const links = await page.getByTestId('diff-regressions-launches').locator('tbody tr').first().locator('a')
			.evaluateAll((as) => as.map((x) => [x.dataset.testid, x.getAttribute('href')]));
		assert.deepEqual(links, [['link-base', '#file=1&view=ncu'], ['link-new', '#file=2&view=ncu']]);

		// another gate typed in (an amount, no unit) and exact names; top 10
		await fresh(page, `${server.url}#view=diff&base=1&new=2&top=10`);
		await page.getByTestId('diff-regressions-launches').waitFor();
		const req2 = waitForApi(page, (r) => r.url().includes('/api/diff?'));
		await page.getByTestId('diff-gate').fill(regs);
		await page.getByTestId('diff-gate').press('Enter');
		assert.match((await req2).url(), /fail_if=ncu\.registers_per_thread%3E%2B2$/);
		await page.getByTestId('diff-gates').waitFor();
		await assertLists(ncuTables, ['--top', '10', '--fail-if', regs, nb, nn]);
		assert.deepEqual((await pageTable('diff-gates', false)).rows[0].slice(2), ['64', '72', '8', '8', '2', '', 'tripped']);
		const req3 = waitForApi(page, (r) => r.url().includes('/api/diff?'));
		await page.getByTestId('diff-exact').check();
		assert.match((await req3).url(), /exact_names=1/);
		await retry(() => assertLists(ncuTables, ['--exact-names', '--top', '10', '--fail-if', regs, nb, nn]));
	} finally {
		await server.stop();
	}
});

test('the Diff page of two Nsight Systems run directories and of two exports, against gpuprof diff', { skip: serveOnly('run directories and SQLite exports') }, async () => {
	// files 1, 2 the reports, 3, 4 the run directories, 5, 6 the exports, 7 a trace
	const server = await startServer([nb, nn, rb, rn, sa, sb, tr]);
	try {
		// two run directories: resize's host time +200 ns (inference's GPU time +900 ns)
		const nsysTables = [['iterations', 'Iterations'], ['iteration_stats', 'Iteration distribution (per-iteration values; Mann-Whitney U, p < 0.05)'], ['ranges', 'Scoped ranges']];
		await fresh(page, `${server.url}#view=diff&base=3&new=4&exact=1`);
		await page.getByTestId('diff-regressions-ranges').waitFor();
		const mr = await assertLists(nsysTables, [rb, rn]);
		const ranges = mr['Top regressions: Scoped ranges'];
		const col = (t) => ranges.cols.indexOf(t);
		const resize = ranges.rows.find((r) => r[0] === 'preprocessing.resize' || r[0].endsWith('resize'));
		assert.equal(resize[col('Δ Host Inclusive')], '200 ns');
		// inference: only its GPU time changed, not the primary host time: in no list
		assert.equal(ranges.rows.find((r) => r[0].endsWith('inference')), undefined);
		assert.deepEqual(await disabled('diff-new'), [true, true, false, false, false, false, true]);
		// two exports, swapped
		await fresh(page, `${server.url}#view=diff&base=6&new=5`);
		await page.getByTestId('diff-summary').waitFor();
		await assertLists(nsysTables, [sb, sa]);
		const nl = await page.locator('[data-testid^=diff-] a[data-testid=link-new]').first().getAttribute('href');
		assert.equal(nl, '#file=5&view=nsys');
	} finally {
		await server.stop();
	}
});
