// Tests of the memory chart of the Nsight Compute page's Memory Workload
// Analysis tab (web/ncu_memchart.js): on tests/golden/_inputs/full.ncu-rep
// (tests/ncu/mkfull.py) the values its inputs give, by hand; on a real
// full report every number against the raw CSV NVIDIA's ncu exported from
// it (probe_ffma: `--page raw --csv`, default auto units). Screenshots
// ncu-memchart-1280 and ncu-memchart-800. Real reports are skipped when
// absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startServer, launchBrowser, newPage, shot, fresh } from './harness.mjs';
import { MEMCHART } from '../../web/ncu_memchart.js';
import { closeToCell, csvFile, detailText, ffma, ffmaRaw, full } from './ncu_csv.mjs';


let browser, page;
before(async () => { browser = await launchBrowser(); page = await newPage(browser); });
after(async () => { await browser?.close(); });

const values = (p) => p.getByTestId('ncu-memchart-value').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.key, {
	text: e.textContent, metric: e.dataset.metric ?? null, unit: e.dataset.unit ?? null, value: e.dataset.value ?? null,
}])));
const memTab = (url, id) => `${url}#file=1&view=ncu&kernel=${id}&section=${encodeURIComponent('Memory Workload Analysis')}`;

test('the memory chart of the fixture: hit rates, throughputs and bandwidth by hand, n/a where the report has no counter', async () => {
	const srv = await startServer([full]);
	try {
		await fresh(page, memTab(srv.url, 0));
		await page.getByTestId('ncu-memchart').waitFor();
		assert.deepEqual(await page.getByTestId('ncu-memchart-node').evaluateAll((els) => els.map((e) => e.dataset.level)), ['kernel', 'l1', 'shared', 'l2', 'dram']);
		const v = await values(page);
		assert.deepEqual(Object.keys(v).sort(), Object.keys(MEMCHART).sort());
		// mkfull.py's sgemm_tile: L1 hit 12.5 %, L1 throughput = its lsuin
		// requests' 30.125 %, L2 hit 80 %, L2 throughput = its T sectors'
		// 41.25 %, DRAM 2e11 B/s = 200 GB/s of 48 B x 7 GHz = 59.52 %
		assert.deepEqual(v.l1_hit, { text: 'Hit rate 12.50 %', metric: 'l1tex__t_sector_hit_rate.pct', unit: '%', value: '12.5' });
		assert.equal(v.l1_throughput.metric, 'l1tex__throughput.avg.pct_of_peak_sustained_elapsed');
		assert.equal(Number(v.l1_throughput.value), 30.125);
		assert.deepEqual(v.l2_hit, { text: 'Hit rate 80 %', metric: 'lts__t_sector_hit_rate.pct', unit: '%', value: '80' });
		assert.equal(v.l2_throughput.text, 'Throughput 41.25 %');
		assert.equal(Number(v.dram_throughput.value), 100 * 2e11 / 3.36e11);
		assert.equal(v.dram_throughput.text, 'Throughput 59.52 %');
		assert.deepEqual(v.dram_bandwidth, { text: 'Bandwidth 200 Gbyte/s', metric: 'dram__bytes.sum.per_second', unit: 'Gbyte/s', value: '200' });
		// shared memory: 30,000 load instructions in 45,000 wavefronts,
		// 15,000 bank conflicts, no stores (mkfull.py)
		assert.deepEqual(v.shared_ld, { text: '↓ shared loads 30,000 inst', metric: 'smsp__sass_inst_executed_op_shared_ld.sum', unit: 'inst', value: '30000' });
		assert.equal(v.shared_st.text, '↓ shared stores 0 inst');
		assert.deepEqual(v.shared_ld_wavefronts, { text: 'Wavefronts ld 45,000', metric: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', unit: '', value: '45000' });
		assert.equal(v.shared_ld_conflicts.text, 'Bank conflicts ld 15,000');
		assert.equal(v.shared_st_wavefronts.text, 'Wavefronts st 0');
		assert.equal(v.shared_st_conflicts.text, 'Bank conflicts st 0');
		// the fixture has no request or byte counters between the levels
		for (const k of ['ld_requests', 'st_requests', 'l1_to_l2', 'l2_to_l1', 'dram_to_l2', 'l2_to_dram']) {
			assert.equal(v[k].metric, null, k);
			assert.match(v[k].text, / n\/a$/, k);
		}
		// the rest of the tab is still there
		await page.getByTestId('ncu-memory-table').waitFor();
		// relu_kernel has no shared memory counters: n/a, the node kept
		await fresh(page, memTab(srv.url, 1));
		await page.getByTestId('ncu-memchart').waitFor();
		const r = await values(page);
		for (const k of Object.keys(MEMCHART).filter((k) => k.startsWith('shared_'))) {
			assert.equal(r[k].metric, null, k);
			assert.match(r[k].text, / n\/a$/, k);
		}
	} finally {
		await srv.stop();
	}
});

test('the memory chart of a real report: every number as ncu\'s raw CSV has it', { skip: existsSync(ffma) && existsSync(ffmaRaw) ? false : 'no probe_ffma report' }, async () => {
	const rows = csvFile(ffmaRaw, 5); // then a traceback (PROVENANCE.md)
	const [names, units] = rows;
	const srv = await startServer([ffma]);
	try {
		for (let id = 0; id < 3; id++) {
			await fresh(page, memTab(srv.url, id));
			await page.getByTestId('ncu-memchart').waitFor();
			const v = await values(page);
			for (const [k, d] of Object.entries(MEMCHART)) {
				const metric = d.metrics.find((m) => names.includes(m)); // the first the export has
				assert.ok(metric, k);
				assert.equal(v[k].metric, metric, k);
				const col = names.indexOf(metric), cell = rows[2 + id][col];
				assert.equal(v[k].unit, units[col], k);
				assert.ok(closeToCell(v[k].value, cell), `${k}: ${v[k].value} vs ${cell}`);
				assert.ok(v[k].text.endsWith(` ${detailText(cell, units[col])}${units[col] ? ` ${units[col]}` : d.unit ? ` ${d.unit}` : ''}`), `${k}: "${v[k].text}" vs ${cell} ${units[col]}`);
			}
			if (id === 0) {
				// by eye: L2 hit 87.55 %, 2.69 KB read from DRAM, 128 B written
				assert.equal(v.l2_hit.text, 'Hit rate 87.55 %');
				assert.equal(v.dram_to_l2.text, '↑ read 2.69 Kbyte');
				assert.equal(v.l2_to_dram.text, '↓ written 128 byte');
				await shot(page, 'ncu-memchart-1280');
			}
		}
		const narrow = await browser.newPage({ viewport: { width: 800, height: 900 } });
		try {
			await narrow.goto(memTab(srv.url, 0));
			await narrow.getByTestId('ncu-memchart').waitFor();
			const sizes = await narrow.locator('[data-testid=ncu-memchart] text').evaluateAll((ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a));
			assert.ok(Math.min(...sizes) >= 10, `smallest label ${Math.min(...sizes)}`);
			// no value text runs past the diagram's right edge or over another
			const boxes = await narrow.locator('[data-testid=ncu-memchart] text').evaluateAll((ts) => ts.map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }));
			const svgBox = await narrow.getByTestId('ncu-memchart').evaluate((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right]; });
			for (const b of boxes) assert.ok(b[2] <= svgBox[1] + 1, `text right edge ${b[2]} past ${svgBox[1]}`);
			for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
				const [a, b] = [boxes[i], boxes[j]];
				assert.ok(a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] + 1 || b[3] <= a[1] + 1, `labels ${i} and ${j} overlap`);
			}
			// nor over the Shared Memory box, apart from its own rows
			const [sb] = await narrow.locator('[data-testid=ncu-memchart-node][data-level=shared] rect').evaluateAll((rs) => rs.map((r) => { const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }));
			const outside = await narrow.locator('[data-testid=ncu-memchart] > g:not([data-level=shared]) text').evaluateAll((ts) => ts.map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }));
			assert.ok(outside.length > 10);
			for (const b of outside) assert.ok(b[2] <= sb[0] || sb[2] <= b[0] || b[3] <= sb[1] || sb[3] <= b[1], `label [${b}] over the Shared Memory box [${sb}]`);
			await shot(narrow, 'ncu-memchart-800');
		} finally {
			await narrow.close();
		}
	} finally {
		await srv.stop();
	}
});
