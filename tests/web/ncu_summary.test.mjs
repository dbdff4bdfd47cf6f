// Tests of the Nsight Compute page's Summary tab (web/ncu_summary.js): the
// first tab of a kernel. On tests/golden/_inputs/full.ncu-rep (written by
// tests/ncu/mkfull.py) every card against the values mkfull.py chooses,
// written out by hand here; on the real reports of ../shared/data/ncu the
// cards against the raw CSV that NVIDIA's ncu itself exported from the same
// report (probe_ffma: `--page raw --csv`, default auto units) and the rule
// list against ncu's own details CSV (sassscope: `--page details --csv`).
// Screenshots ncu-summary-1280 and ncu-summary-800. Real reports are
// skipped when absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, newPage, shot, fresh, cliJson } from './harness.mjs';
import { BAR_W } from '../../web/ncu_charts.js';
import { SUMMARY, summaryCards } from '../../web/ncu_summary.js';
import { closeToCell, csvFile, dataDir, detailText, ffma, ffmaRaw, full, FULL_KERNEL0_CARDS, summaryCardsOf } from './ncu_csv.mjs';

const sass = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep');
const sassDetails = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.details.csv');

test('a card takes the metric the report\'s section shows under its label, else the first candidate present', () => {
	const m = (value) => ({ unit: '%', value, text: String(value), description: null });
	const both = new Map([['sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed', m(10)], ['sm__instruction_throughput.avg.pct_of_peak_sustained_active', m(20)]]);
	const busy = (metrics, byLabel) => summaryCards(metrics, byLabel).find((c) => c.key === 'sm_busy');
	// a 2022.4 report labels the _active one "SM Busy"
	assert.equal(busy(both, new Map([['sm busy', ['sm__instruction_throughput.avg.pct_of_peak_sustained_active']]])).value, 20);
	// no section says: the first candidate
	assert.equal(busy(both).value, 10);
	assert.equal(busy(new Map()).metric, null);
	assert.equal(summaryCards(new Map()).length, SUMMARY.length);
});

let browser, page;
before(async () => { browser = await launchBrowser(); page = await newPage(browser); });
after(async () => { await browser?.close(); });


test('the Summary tab is the first tab: the fixture\'s cards by hand, bars and hints', async () => {
	const srv = await startServer([full]);
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0`);
		await page.getByTestId('ncu-summary-card').first().waitFor();
		assert.equal(await page.getByTestId('ncu-sections').locator('button').first().textContent(), 'Summary');
		assert.equal(await page.getByTestId('ncu-summary-tab').getAttribute('class'), 'active');
		const got = await summaryCardsOf(page);
		assert.deepEqual(got.map((c) => [c.label, c.value]), FULL_KERNEL0_CARDS);
		const byKey = Object.fromEntries(got.map((c) => [c.key, c]));
		assert.equal(byKey.duration.metric, 'gpu__time_duration.sum');
		assert.equal(Number(byKey.duration.num), 80);
		assert.equal(Number(byKey.memory_throughput.num), 100 * 2e11 / 3.36e11);
		assert.equal(byKey.sm_busy.metric, null);
		// the card's title: the metric and its description
		assert.equal(byKey.duration.title, 'gpu__time_duration.sum: Wall time the kernel ran on the GPU.');
		// the percentage cards as bars, at their values
		const bars = await page.getByTestId('ncu-summary-bars').locator('rect.bar').evaluateAll((els) => els.map((e) => [e.dataset.label, Number(e.dataset.value), Number(e.getAttribute('width'))]));
		assert.deepEqual(bars.map((b) => b.slice(0, 2)), [['Compute (SM) Throughput', 72.5], ['Memory Throughput', 100 * 2e11 / 3.36e11], ['DRAM Throughput', 100 * 2e11 / 3.36e11],
			['Achieved Occupancy', 61.25], ['Theoretical Occupancy', 200 / 3]]);
		for (const b of bars) assert.equal(b[2], (b[1] / 100) * BAR_W);
		// both hints of sgemm_tile (mkfull.py), the one with a speedup first
		const hints = page.getByTestId('ncu-summary-hints').locator('li');
		assert.equal(await hints.count(), 2);
		assert.equal(await hints.nth(0).getAttribute('data-rule'), 'AchievedOccupancy');
		assert.match(await hints.nth(0).textContent(), /^OPT Occupancy · AchievedOccupancy \(Achieved Occupancy\): est\. speedup 8\.13 % \(local\)The achieved occupancy \(61\.25 %\) is below the theoretical 66\.67 %; see Warp State Statistics\.$/);
		assert.equal(await hints.nth(1).getAttribute('data-rule'), 'SOLBottleneck');
		// a click opens the hint's section
		await hints.nth(0).click();
		await page.locator('[data-testid=ncu-section-tab][data-name=Occupancy].active').waitFor();
		assert.equal(await page.getByTestId('ncu-summary-tab').getAttribute('class'), '');
		// and the Summary tab brings it back
		await page.getByTestId('ncu-summary-tab').click();
		await page.getByTestId('ncu-summary-card').first().waitFor();
		assert.match(await page.evaluate(() => location.hash), /tab=summary/);
		// the second kernel: its own numbers (relu_kernel: 20 us, 3e11 B/s = 89.29 %)
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=1&tab=summary`);
		await page.locator('[data-testid=ncu-summary-card][data-key=duration][data-value="20"]').waitFor();
		assert.equal((await summaryCardsOf(page)).find((c) => c.key === 'memory_throughput').value, '89.29 %');
	} finally {
		await srv.stop();
	}
});

test('a real report: every card equals the raw CSV ncu exported, in its auto units', { skip: existsSync(ffma) && existsSync(ffmaRaw) ? false : 'no probe_ffma report' }, async () => {
	// the export ends in a Python traceback the author's shell merged in (PROVENANCE.md): header, units, 3 results
	const rows = csvFile(ffmaRaw, 5);
	const [names, units] = rows;
	const srv = await startServer([ffma]);
	try {
		for (let id = 0; id < 3; id++) {
			await fresh(page, `${srv.url}#file=1&view=ncu&kernel=${id}`);
			await page.locator(`[data-testid=ncu-summary-host] [data-testid=ncu-summary-card]`).first().waitFor();
			const got = await summaryCardsOf(page);
			const row = rows[2 + id];
			let checked = 0;
			for (const c of got) {
				assert.ok(c.metric, `${c.key}: the report has every summary metric`);
				const col = names.indexOf(c.metric);
				assert.ok(col > 10, c.metric);
				assert.equal(c.unit, units[col], `${c.metric} unit`);
				if (units[col]) assert.ok(closeToCell(c.num, row[col]), `${c.metric}: ${c.num} vs ${row[col]}`);
				assert.equal(c.value, `${detailText(row[col], units[col])}${units[col] ? ` ${units[col]}` : ''}`, c.metric);
				checked++;
			}
			assert.equal(checked, 15);
		}
		// kernel 0 by eye: 4.61 us, 0.96 % memory, SM Busy from the Compute Workload Analysis header
		assert.equal((await summaryCardsOf(page)).find((c) => c.key === 'sm_busy').metric, 'sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed');
	} finally {
		await srv.stop();
	}
});

test('a real report: the rule list is ncu\'s own, highest speedup first; screenshots at 1280 and 800 px', { skip: existsSync(sass) && existsSync(sassDetails) ? false : 'no sassscope report' }, async () => {
	const det = csvFile(sassDetails);
	const h = det[0];
	const want = det.slice(1).map((r) => Object.fromEntries(h.map((k, i) => [k, r[i]]))).filter((r) => r['Rule Name'])
		.map((r) => ({ section: r['Section Name'], rule: r['Rule Name'], type: r['Rule Type'], speedup: r['Estimated Speedup'] ? `est. speedup ${r['Estimated Speedup']} % (${r['Estimated Speedup Type']})` : 'no estimate', message: r['Rule Description'] }))
		.sort((a, b) => (b.speedup === 'no estimate' ? -1 : Number(b.speedup.split(' ')[2])) - (a.speedup === 'no estimate' ? -1 : Number(a.speedup.split(' ')[2])));
	assert.equal(want.length, 6);
	const srv = await startServer([sass]);
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0`);
		const li = page.getByTestId('ncu-summary-hints').locator('li');
		await li.first().waitFor();
		const got = await li.evaluateAll((els) => els.map((e) => ({ section: e.dataset.section, rule: e.dataset.rule, type: e.dataset.type,
			speedup: e.querySelector('.speedup').textContent, message: e.querySelector('.message').textContent })));
		assert.deepEqual(got.map((g) => [g.section, g.rule, g.type, g.speedup]), want.map((w) => [w.section, w.rule, w.type, w.speedup]));
		for (let i = 0; i < got.length; i++) assert.equal(got[i].message, want[i].message, want[i].rule);
		await shot(page, 'ncu-summary-1280');
		const narrow = await browser.newPage({ viewport: { width: 800, height: 900 } });
		try {
			await narrow.goto(`${srv.url}#file=1&view=ncu&kernel=0`);
			await narrow.getByTestId('ncu-summary-card').first().waitFor();
			// no card wider than the page, no label below 10 px
			const rects = await narrow.getByTestId('ncu-summary-card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
			assert.ok(Math.max(...rects) <= 800, `card right edge ${Math.max(...rects)}`);
			const sizes = await narrow.locator('[data-testid=ncu-summary] svg text').evaluateAll((ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
			assert.ok(sizes.length && Math.min(...sizes) >= 10, `smallest label ${Math.min(...sizes)}`);
			await shot(narrow, 'ncu-summary-800');
		} finally {
			await narrow.close();
		}
	} finally {
		await srv.stop();
	}
});

// --- metric tooltips: the description of every metric row of the default sections ---

const DEFAULT_SECTIONS = ['SpeedOfLight', 'MemoryWorkloadAnalysis', 'Occupancy', 'LaunchStats', 'ComputeWorkloadAnalysis', 'SchedulerStats', 'WarpStateStats', 'InstructionStats'];
const t4 = path.join(dataDir, 'ncu2024.2_t4_full_mlp.ncu-rep'); // --set full: all eight sections

// Every metric row of each default section of kernel 0 has a title with
// its metric and a description; returns the rows checked, by section.
async function tooltips(rep, sections) {
	const body = cliJson('ncu', 'body', '--id', '0', rep).body;
	const names = new Map(body.filter((r) => r.section).map((r) => [r.section_id, r.section]));
	const srv = await startServer([rep]);
	const out = {};
	try {
		for (const id of sections) {
			const name = names.get(id);
			assert.ok(name, `${path.basename(rep)} has section ${id}`);
			await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0&section=${encodeURIComponent(name)}`);
			await page.locator(`[data-testid=ncu-section][data-section="${name}"] [data-testid=table-ncu-metrics] tbody tr`).first().waitFor();
			const rows = await page.getByTestId('table-ncu-metrics').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => {
				const sp = tr.cells[1].querySelector('span');
				return { label: tr.cells[1].textContent, metric: sp?.dataset.metric ?? '', description: sp?.dataset.description ?? '', title: sp?.title ?? '' };
			}));
			const want = cliJson('ncu', 'details', '--id', '0', '--section', id, rep).details.filter((r) => r.rule === null);
			assert.equal(rows.length, want.length, id);
			for (const [i, r] of rows.entries()) {
				assert.ok(r.metric && r.description, `${path.basename(rep)} ${id}: "${r.label}" has no description`);
				assert.equal(r.metric, want[i].metric_name);
				assert.equal(r.title, `${r.metric}: ${r.description}`);
			}
			out[id] = rows;
		}
	} finally {
		await srv.stop();
	}
	return out;
}

test('metric tooltips: every row of the fixture\'s default sections has its description', async () => {
	const got = await tooltips(full, ['SpeedOfLight', 'MemoryWorkloadAnalysis', 'Occupancy', 'LaunchStats', 'WarpStateStats', 'InstructionStats']);
	// a few by hand (src/ncu/describe.c's words)
	const row = (sec, label) => got[sec].find((r) => r.label === label);
	assert.equal(row('SpeedOfLight', 'Duration').title, 'gpu__time_duration.sum: Wall time the kernel ran on the GPU.');
	assert.equal(row('SpeedOfLight', 'L2: T Sectors').description,
		'32-byte sectors handled by the L2 cache\'s tag stage (all accesses), as a percentage of the peak sustained rate over the kernel\'s elapsed cycles (average over the units).');
	assert.equal(row('WarpStateStats', 'Stall Long Scoreboard').description, 'Warps waiting for data from L1TEX (global, local, texture or surface memory), on average per issued instruction.');
	assert.equal(row('MemoryWorkloadAnalysis', 'L2 Hit Rate').metric, 'lts__t_sector_hit_rate.pct');
});

test('metric tooltips: every row of the eight default sections of a real full report', { skip: existsSync(t4) ? false : 'no T4 report' }, async () => {
	const got = await tooltips(t4, DEFAULT_SECTIONS);
	assert.ok(Object.values(got).reduce((n, r) => n + r.length, 0) > 150);
});
