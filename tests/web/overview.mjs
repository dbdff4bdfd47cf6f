// overview: the Overview page's assertions, shared by the server-backed
// test (viewer.test.mjs) and the static site's (site.test.mjs), so both
// backends are held to the same numbers: those of the native binary's
// `summary` on the same file (JSON, and the text table's rendering of the
// average step time).
import assert from 'node:assert/strict';

export async function checkOverview(page, want, summaryText) {
	await page.getByTestId('card-steps').waitFor({ timeout: 120000 });
	assert.equal(await page.getByTestId('card-steps').textContent(), String(want.overview.steps));
	// the text table's own rendering of the same number
	const avg = summaryText.match(/Average step time:\s+(.+)/)[1].trim();
	assert.equal(await page.getByTestId('card-avg-step').textContent(), avg);
	assert.equal(await page.getByTestId('card-device').textContent(), want.overview.device_type);
	// the breakdown chart has one bar per part (Total excluded)
	const parts = want.breakdown.filter((p) => p.part !== 'Total');
	assert.equal(await page.locator('[data-testid=breakdown-chart] rect').count(), parts.length);
	const rows = await page.locator('[data-testid=table-breakdown] tbody tr').allTextContents();
	assert.equal(rows.length, want.breakdown.length);
	assert.ok(rows[0].startsWith(want.breakdown[0].part));
	const gpus = await page.locator('[data-testid=table-gpus] tbody tr').count();
	assert.equal(gpus, want.gpus.length);
}
