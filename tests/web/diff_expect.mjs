// diff_expect: what the Diff page must show of a pair, from the CLI's own
// reports of it (`gpuprof diff --format markdown` and the text table), for
// the server-backed (diff.test.mjs) and the static site's (site.test.mjs)
// tests alike.
import { cliText } from './harness.mjs';

// The CLI's text tables: {title: rows of cells by column title}.
function textTables(out) {
	const t = {};
	for (const block of out.trim().split(/\n\n+/)) {
		const [title, head, ...rows] = block.split('\n');
		if (!head || !/ {2}/.test(head.trim())) continue;
		const cols = head.trim().split(/ {2,}/);
		t[title] = rows.map((l) => Object.fromEntries(l.trim().split(/ {2,}/).map((c, i) => [cols[i], c])));
	}
	return t;
}

// The markdown report: its "Mean step time" line and its tables by title
// (rows of cells by column title).
function markdown(out) {
	const line = /\*\*Mean step time:\*\* (.*)/.exec(out)[1];
	const tables = {};
	for (const block of out.split(/\n(?=### )/)) {
		const title = /^### (.*)/.exec(block)?.[1];
		const rows = block.split('\n').filter((l) => l.startsWith('| '));
		if (!title || rows.length < 1) continue;
		const split = (l) => l.slice(2, -2).split(' | ');
		const cols = split(rows[0]);
		tables[title] = rows.slice(1).map((l) => Object.fromEntries(split(l).map((c, i) => [cols[i], c])));
	}
	return { line, tables };
}

// For `gpuprof diff ARGS`: the markdown report, the step-time table's
// rows and its total row, and the page's summary line (the markdown's line
// with the text table's p, U and test).
export function diffExpect(args) {
	const md = markdown(cliText('diff', '--format', 'markdown', ...args));
	const text = textTables(cliText('diff', ...args));
	const total = text['Step time (per-step values; Mann-Whitney U, p < 0.05)'];
	const tot = total.find((r) => r.Part === 'total');
	const line = `Mean step time: ${md.line.replace(' -> ', ' → ')}, p = ${tot.p} (Mann-Whitney U = ${tot.U}, ${tot.Test === 'exact' ? 'exact' : 'normal approximation'})`;
	return { md, total, tot, line };
}
