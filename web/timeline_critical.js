// timeline_critical: the critical path of a step on the Timeline page, over
// /api/file/ID/critical-path?instance=K (the JSON of `gpuprof critical-path
// --instance K`: HTA's critical path of the K-th ProfilerStep). The
// "Critical path" button (or critical=K in the hash) asks for it; the
// slices of the path's events are outlined and its edges drawn as arrows
// between the slices drawn (from an edge's source node time to its
// destination's, on the rows of their events). The canvas carries what was
// drawn: data-critical (slices outlined), data-critical-edges (arrows),
// data-critical-names (the outlined slices' names, sorted). timeline.js
// calls it from a few hook lines.

import { fmtDur } from './fmt.js';
import { el } from './dom.js';

const CRIT = '#d0021b';

// api(path) -> JSON; s: the hash state (critical=K); save(): writes it;
// redraw(): draws the timeline again.
export function criticalPath(api, id, s, save, redraw) {
	let on = s.critical !== undefined && s.critical !== '' && Number.isFinite(+s.critical);
	const inst = on ? Math.max(0, Math.floor(+s.critical)) : 0;
	let rows = new Set(), edges = [];
	const btn = el('button', { textContent: 'Critical path', dataset: { testid: 'timeline-critical' },
		title: "HTA's critical path of the step (critical=K in the address: the K-th ProfilerStep)" });
	const note = el('span', { className: 'count', dataset: { testid: 'timeline-critical-note' } });
	async function fetchPath() {
		rows = new Set(); edges = [];
		note.textContent = '';
		if (!on) return;
		try {
			const d = await api(`/api/file/${id}/critical-path?instance=${inst}`);
			edges = d.path;
			for (const e of edges) { rows.add(e.from_row); rows.add(e.to_row); }
			const c = d.critical_path;
			note.textContent = `critical path of ${c.annotation} ${inst}: ${c.path_events} events, ${fmtDur(c.path_ns)}`;
		} catch (e) {
			note.textContent = `no critical path: ${e.message}`;
		}
	}
	btn.addEventListener('click', async () => {
		on = !on;
		s.critical = on ? String(inst) : '';
		save();
		await fetchPath();
		redraw();
	});
	let outlined = [];
	return {
		ready: fetchPath().then(redraw),
		tools: [btn, note],
		begin() { outlined = []; },
		// an event slice drawn at (x0, y, w, h): outlined when on the path
		mark(g, it, x0, y, w, h) {
			if (!rows.has(it.row)) return;
			g.strokeStyle = CRIT; g.lineWidth = 2;
			g.strokeRect(x0, y, w, h);
			g.lineWidth = 1;
			outlined.push(it.name);
		},
		// the path's edges between slices drawn (hits: the page's hit boxes)
		draw(g, hits, x, canvas) {
			const at = new Map();
			for (const h of hits) if (h.it.type === 'event' && rows.has(h.it.row)) at.set(h.it.row, (h.y0 + h.y1) / 2);
			let n = 0;
			g.strokeStyle = CRIT; g.fillStyle = CRIT; g.lineWidth = 2;
			for (const e of edges) {
				const ya = at.get(e.from_row), yb = at.get(e.to_row);
				if (ya === undefined || yb === undefined) continue;
				const xa = x(e.from_ns), xb = x(e.to_ns);
				g.beginPath(); g.moveTo(xa, ya); g.lineTo(xb, yb); g.stroke();
				g.beginPath(); g.arc(xb, yb, 2.5, 0, 2 * Math.PI); g.fill();
				n++;
			}
			g.lineWidth = 1;
			canvas.dataset.critical = String(outlined.length);
			canvas.dataset.criticalEdges = String(n);
			canvas.dataset.criticalNames = [...new Set(outlined)].sort().join('|');
		},
	};
}
