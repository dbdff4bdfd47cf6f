// timeline_perf: what the Timeline measures of itself, for the browser
// tests and bench/: the time of each frame (a draw of the canvas, from the
// answer in hand) and of each window request (from asking to the parsed
// answer), the last 2,000 of each, with their 95th percentiles (nearest
// rank) on the canvas: data-frames, data-frame-p95 (ms), data-requests,
// data-request-p95 (ms); data-frame-ms and data-request-ms list the last
// 100 of each (ms, split by spaces), for a test's rounds.

const KEEP = 2000;

function p95(v) {
	const s = [...v].sort((a, b) => a - b);
	return s.length ? s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] : 0;
}

export function frameMeter(canvas) {
	const frames = [], reqs = [];
	let t0 = 0;
	const keep = (v, ms) => { v.push(ms); if (v.length > KEEP) v.shift(); };
	return {
		begin() { t0 = performance.now(); },
		end() {
			keep(frames, performance.now() - t0);
			canvas.dataset.frames = String(frames.length);
			canvas.dataset.frameP95 = p95(frames).toFixed(2);
			canvas.dataset.frameMs = frames.slice(-100).map((v) => v.toFixed(2)).join(' ');
		},
		request(ms) {
			keep(reqs, ms);
			canvas.dataset.requests = String(reqs.length);
			canvas.dataset.requestP95 = p95(reqs).toFixed(2);
			canvas.dataset.requestMs = reqs.slice(-100).map((v) => v.toFixed(2)).join(' ');
		},
	};
}
