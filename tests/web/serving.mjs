// serving: a test file's server and browser page (node:test's before and
// after; apart from harness.mjs, which scripts outside the test runner,
// bench/viewer.mjs, import too).
import { before, after } from 'node:test';
import { startServer, launchBrowser, newPage } from './harness.mjs';

// A test file's server of files and its browser page, started before its
// tests (then ready(ctx)) and stopped after them (then cleanup()):
// ctx.server, ctx.browser, ctx.page once started. A file that keeps them
// in variables of its own sets them in ready: a before() of its own could
// run before this one's awaits are done.
export function serving(files, { ready = () => {}, cleanup = () => {} } = {}) {
	const ctx = {};
	before(async () => {
		ctx.server = await startServer(files);
		ctx.browser = await launchBrowser();
		ctx.page = await newPage(ctx.browser);
		ready(ctx);
	});
	after(async () => {
		await ctx.browser?.close();
		await ctx.server?.stop();
		cleanup();
	});
	return ctx;
}
