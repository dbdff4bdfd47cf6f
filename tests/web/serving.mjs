// serving: a test file's server and browser page (node:test's before and
// after; apart from harness.mjs, which scripts outside the test runner,
// bench/viewer.mjs, import too).
import { before, after } from 'node:test';
import { startServer, launchBrowser, newPage } from './harness.mjs';

// A test file's server of files and its browser page, started before its
// tests and stopped after them (then cleanup()): ctx.server, ctx.browser,
// ctx.page once started.
export function serving(files, cleanup = () => {}) {
	const ctx = {};
	before(async () => {
		ctx.server = await startServer(files);
		ctx.browser = await launchBrowser();
		ctx.page = await newPage(ctx.browser);
	});
	after(async () => {
		await ctx.browser?.close();
		await ctx.server?.stop();
		cleanup();
	});
	return ctx;
}
