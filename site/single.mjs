// single: writes build/site/gpuprof.html, the static site as one file that
// opens from file:// (make site runs it after copying the folder). Chromium
// refuses module scripts and workers fetched by a file:// page, so
// nothing is fetched: the style sheet and the icon are inline, every web/
// module is a data: URL in an import map (each `from './x.js'` of the
// modules becomes `from 'gp/x.js'`, which the map resolves; a data: URL
// can import only through the map), and the worker (engine.js, the
// module with its .wasm inside, then engine_worker.js) starts from a Blob
// of its own text (window.gpWorkerUrl, read by static_api.js). The pages
// and the engine are the same files the folder serves.
// Usage: node site/single.mjs build/site
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] || 'build/site';
const read = (name) => readFileSync(path.join(dir, name), 'utf8');
const b64 = (text) => Buffer.from(text, 'utf8').toString('base64');
const modules = readdirSync(dir).filter((f) => f.endsWith('.js') && !['engine.js', 'engine_worker.js'].includes(f)).sort();
const imports = {};
for (const m of modules) {
	const text = read(m).replace(/(\bfrom\s+|\bimport\s+)'\.\/([a-z_]+\.js)'/g, (all, kw, name) => {
		if (!modules.includes(name)) throw new Error(`${m}: imports ${name}, which is not in ${dir}`);
		return `${kw}'gp/${name}'`;
	});
	imports[`gp/${m}`] = `data:text/javascript;base64,${b64(text)}`;
}
const worker = `${read('engine.js')}\n${read('engine_worker.js')}`;
const icon = `data:image/svg+xml;base64,${Buffer.from(readFileSync(path.join(dir, 'favicon.svg'))).toString('base64')}`;
let html = read('index.html');
const swap = (from, to) => {
	if (!html.includes(from)) throw new Error(`index.html has no ${from}`);
	html = html.replace(from, () => to);
};
swap('<link rel="stylesheet" href="style.css">', `<style>\n${read('style.css')}\n</style>`);
swap('<link rel="icon" href="favicon.svg">', `<link rel="icon" href="${icon}">`);
swap('<script type="module" src="static_api.js"></script>', [
	`<script type="importmap">${JSON.stringify({ imports })}</script>`,
	`<script>window.gpWorkerUrl = URL.createObjectURL(new Blob([atob('${b64(worker)}')].map((s) => Uint8Array.from(s, (c) => c.charCodeAt(0))), { type: 'text/javascript' }));</script>`,
	"<script type=\"module\">import 'gp/static_api.js';</script>",
].join('\n'));
swap('<script type="module" src="app.js"></script>', "<script type=\"module\">import 'gp/app.js';</script>");
writeFileSync(path.join(dir, 'gpuprof.html'), html);
console.log(`${path.join(dir, 'gpuprof.html')}: ${modules.length} modules, ${(html.length / 1e6).toFixed(1)} MB`);
