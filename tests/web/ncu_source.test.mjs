// Tests of the Source tab of the Nsight Compute page (web/ncu_source.js):
// on the real report with source counters, every address's counters
// against the source CSV NVIDIA's ncu exported from it (`--page source
// --print-source sass --csv`), hottest first; a report without them has
// no Source tab. Skipped when ../shared is absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, newPage, shot, fresh, root, serveOnly } from './harness.mjs';
import { csvFile, dataDir, full } from './ncu_csv.mjs';
import { sourceRows } from '../../web/ncu_source.js';

const rep = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep');
const sassCsv = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.source_sass.csv');
const cudaCsv = path.join(dataDir, 'ncu2025.4_rtx3060_basic_srccounters_sassscope.source_cuda_sass.csv');
// NVIDIA's disassembler, as the ncu stage fetches it (tools/get-nvdisasm.sh)
const nvdisasm = process.env.GPUPROF_NVDISASM || path.join(root, 'build/nvdisasm/nvdisasm');

// The server's environment for one test: nvdisasm given, or none at all.
async function serverWith(files, nvd) {
	const saved = [process.env.GPUPROF_NVDISASM, process.env.PATH];
	if (nvd) process.env.GPUPROF_NVDISASM = nvd;
	else { delete process.env.GPUPROF_NVDISASM; process.env.PATH = '/nonexistent'; }
	try {
		return await startServer(files);
	} finally {
		if (saved[0] === undefined) delete process.env.GPUPROF_NVDISASM; else process.env.GPUPROF_NVDISASM = saved[0];
		process.env.PATH = saved[1];
	}
}

test('source rows by hand: one per address, the most executed first, ties by address', () => {
	// body rows as `ncu body --metric` writes them: a metric's row, then its instances (x = address)
	const inst = (metric, x, value) => ({ metric, instance: 0, x, value, section: null });
	const body = [
		{ metric: 'inst_executed', instance: null, x: null, value: 17, section: null },
		inst('inst_executed', 0x100, 2), inst('inst_executed', 0x110, 10), inst('inst_executed', 0x120, 5), inst('inst_executed', 0x090, 5),
		inst('thread_inst_executed', 0x110, 320), inst('thread_inst_executed', 0x100, 64),
		inst('thread_inst_executed_true', 0x110, 300),
		inst('launch__grid_size', 0, 4), // not a source counter
	];
	assert.deepEqual(sourceRows(body), [
		{ address: '0x110', inst_executed: 10, thread_inst_executed: 320, thread_inst_executed_pred_on: 300 },
		{ address: '0x90', inst_executed: 5, thread_inst_executed: null, thread_inst_executed_pred_on: null },
		{ address: '0x120', inst_executed: 5, thread_inst_executed: null, thread_inst_executed_pred_on: null },
		{ address: '0x100', inst_executed: 2, thread_inst_executed: 64, thread_inst_executed_pred_on: null },
	]);
});

let browser, page;
before(async () => { browser = await launchBrowser(); page = await newPage(browser); });
after(async () => { await browser?.close(); });

const rowsOf = (p) => p.getByTestId('table-ncu-source').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('the Source tab: every SASS address with ncu\'s own counters, the most executed first', { skip: existsSync(rep) && existsSync(sassCsv) ? false : 'no source-counter report' }, async () => {
	// line 1 names the kernel, line 2 the columns, then one row per address
	const csv = csvFile(sassCsv).slice(1).filter((r) => r.length > 1);
	const h = csv[0];
	const col = (name) => h.indexOf(name);
	const want = csv.slice(1).map((r) => [r[col('Address')], Number(r[col('Instructions Executed')]), Number(r[col('Thread Instructions Executed')]),
		Number(r[col('Predicated-On Thread Instructions Executed')])]);
	// ncu lists 32 instructions; the report holds counters for the first 18
	// (the kernel up to its EXIT; the 14 after it are padding, all zero)
	assert.equal(want.length, 32);
	assert.ok(want.slice(18).every((r) => r[1] === 0 && r[2] === 0 && r[3] === 0));
	want.length = 18;
	// hottest first, ties by address (the addresses are fixed-width hex)
	want.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const srv = await serverWith([rep], null); // no nvdisasm: rows by address
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0`);
		await page.getByTestId('ncu-source-tab').click();
		await page.getByTestId('table-ncu-source').locator('tbody tr').first().waitFor();
		assert.match(await page.evaluate(() => location.hash), /tab=source/);
		const got = await rowsOf(page);
		assert.deepEqual(got.map((r) => [r[0], Number(r[1].replace(/,/g, '')), Number(r[2].replace(/,/g, '')), Number(r[3].replace(/,/g, ''))]), want);
		assert.match(await page.getByTestId('ncu-source-note').textContent(), /SASS text needs NVIDIA's nvdisasm/);
		await shot(page, 'ncu-source');
	} finally {
		await srv.stop();
	}
});

// The SASS text: each address's Source cell equals the Source ncu wrote
// for it (read here from NVIDIA's CSV; ncu 2025.4's branch label
// "`(.L_x_0) " taken out, docs/ncu.md "SASS text"), all 32 instructions,
// the counters beside them.
const sassSkip = serveOnly('the static site starts no programs')
	|| (!existsSync(rep) || !existsSync(sassCsv) ? 'no source-counter report' : !existsSync(nvdisasm) ? `no nvdisasm at ${nvdisasm} (tools/get-nvdisasm.sh)` : false);
test('the Source tab with nvdisasm: the SASS text of every address as ncu prints it', { skip: sassSkip }, async () => {
	const csv = csvFile(sassCsv).slice(1).filter((r) => r.length > 1);
	const h = csv[0];
	const want = new Map(csv.slice(1).map((r) => [r[h.indexOf('Address')], [r[h.indexOf('Source')].replace(/`\(\.L_x_\d+\) /, ''), Number(r[h.indexOf('Instructions Executed')])]]));
	assert.equal(want.size, 32);
	assert.equal(want.get('0x700e7d140')[0], '@P0   EXIT');
	const srv = await serverWith([rep], nvdisasm);
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0&tab=source`);
		await page.getByTestId('table-ncu-source').locator('tbody tr').first().waitFor();
		const head = await page.getByTestId('table-ncu-source').locator('thead th').allTextContents();
		const ia = head.findIndex((x) => x.startsWith('Address')), is = head.findIndex((x) => x.startsWith('Source')), ie = head.findIndex((x) => x.startsWith('Warp Inst'));
		assert.ok(ia >= 0 && is >= 0 && ie >= 0, `columns ${head}`);
		const got = await rowsOf(page);
		assert.equal(got.length, 32);
		for (const r of got) {
			assert.ok(want.has(r[ia]), `address ${r[ia]}`);
			assert.equal(r[is], want.get(r[ia])[0], `source at ${r[ia]}`);
			const n = r[ie] === '-' || r[ie] === '' ? 0 : Number(r[ie].replace(/,/g, ''));
			assert.equal(n, want.get(r[ia])[1], `instructions executed at ${r[ia]}`);
		}
		assert.match(await page.getByTestId('ncu-source-note').textContent(), /disassembled by/);
		// each instruction's CUDA line: the first (its own) line NVIDIA's cuda,sass CSV lists it under
		const ic = head.findIndex((x) => x.startsWith('CUDA Line'));
		assert.ok(ic >= 0, `columns ${head}`);
		const byAddr = new Map(got.map((r) => [r[ia], r[ic]]));
		assert.equal(byAddr.get('0x700e7d100'), 'probe_kernels.cu:83');
		assert.equal(byAddr.get('0x700e7d210'), 'probe_kernels.cu:101');
		// the CUDA lines: every "Line No" row of NVIDIA's CSV, its text, its
		// Instructions Executed (NVIDIA's sum, on the line's own row) and its
		// SASS instructions (the address rows under it; "..." rows mark a
		// gap). NVIDIA does not double the quotes inside a field, so its
		// lines are split at "," (docs/ncu.md)
		const cells = readFileSync(cudaCsv, 'utf8').split(/\r?\n/).filter((l) => l.startsWith('"')).map((l) => l.slice(1, -1).split('","'));
		const hc = cells.findIndex((r) => r[0] === 'Line No');
		const ie2 = cells[hc].indexOf('Instructions Executed');
		const lines = [];
		for (const r of cells.slice(hc + 1)) {
			if (r[0] !== '') lines.push({ line: r[0], text: r[1], n: 0, exec: Number(r[ie2]) });
			else if (r[2] !== '...') lines.at(-1).n++;
		}
		assert.equal(lines.length, 9);
		const crows = await page.getByTestId('table-ncu-cuda').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
		const chead = await page.getByTestId('table-ncu-cuda').locator('thead th').allTextContents();
		const at = (t) => chead.findIndex((x) => x.startsWith(t));
		assert.deepEqual(crows.map((r) => [r[at('Line')], r[at('Source')], Number(r[at('Instructions')]), Number(r[at('Warp Inst')].replace(/,/g, ''))]),
			lines.map((l) => [l.line, l.text, l.n, l.exec]));
		assert.ok(crows.every((r) => r[at('File')] === 'probe_kernels.cu'));
		await shot(page, 'ncu-source-sass');
	} finally {
		await srv.stop();
	}
});

test('a report without source counters has no Source tab', async () => {
	const srv = await startServer([full]);
	try {
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0`);
		await page.getByTestId('ncu-summary-card').first().waitFor();
		assert.equal(await page.getByTestId('ncu-source-tab').count(), 0);
		// asked for all the same: said, not an empty table
		await fresh(page, `${srv.url}#file=1&view=ncu&kernel=0&tab=source`);
		await page.getByTestId('ncu-source-empty').waitFor();
	} finally {
		await srv.stop();
	}
});
