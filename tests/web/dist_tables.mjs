// dist_tables: `gpuprof dist`'s text tables by API key, for the browser
// tests of the Distributed page (dist.test.mjs, dist_select.test.mjs): rows
// of cells (columns are separated by at least two spaces in the text sink).
import assert from 'node:assert/strict';
import { openedAs } from './harness.mjs';

export const TITLES = {
	'Computation/Communication Overview': 'overlap',
	'Synchronizing/Communication Overview': 'waittime',
	'Communication Operations Stats': 'commops',
	Workers: 'workers',
	'Device Information': 'gpus',
};

export function textTables(out) {
	const t = {};
	for (const block of out.trim().split(/\n\n+/)) {
		const [title, , ...rows] = block.split('\n');
		if (TITLES[title]) t[TITLES[title]] = rows.map((l) => l.trim().split(/ {2,}/));
	}
	assert.deepEqual(Object.keys(t).sort(), Object.values(TITLES).sort());
	return t;
}

// The rows of the page's table KEY (table-dist-KEY) as cell texts.
export const cells = (page, key) => page.getByTestId(`table-dist-${key}`).locator('tbody tr')
	.evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));

// Every table of the page equals want's (textTables of the CLI's output).
// The Workers table's file is the name the viewer knows it by (openedAs:
// the path on the server, as the CLI, its last part on the static site).
export async function assertTables(page, want) {
	for (const key of Object.values(TITLES)) {
		const rows = key === 'workers' ? want[key].map((r) => r.map((c) => (c.startsWith('/') ? openedAs(c) : c))) : want[key];
		assert.deepEqual(await cells(page, key), rows, key);
	}
}
