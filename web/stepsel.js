// stepsel: the global step / range selection of a trace (the CLI's --step
// N|A-B and --range NAME), in the header next to the file switcher. State
// in the hash: step=N or step=A-B, or range=NAME (one of them). Every trace
// request the page makes carries it (withSel), so the server answers what
// `gpuprof VIEW --step ...` prints; the Steps page keeps listing every step
// (its step= would pick rows) and marks the selected ones.

import { el } from './dom.js';

const VIEWS = /^\/api\/file\/\d+\/(summary|steps|ops|kernels|memory|timeline|timeline\/find|trace)(\?|$)/;

// {step, range} of hash state s, only what is set.
export function keepSel(s) {
	const o = {};
	if (s.step) o.step = s.step;
	else if (s.range) o.range = s.range;
	return o;
}

// path with the selection of the current hash added when it asks for a
// trace view (the steps view gets only range: its step picks rows).
export function withSel(path) {
	const m = VIEWS.exec(path);
	if (!m) return path;
	const s = keepSel(Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
	if (m[1] === 'steps') delete s.step;
	const q = new URLSearchParams(s).toString();
	return q ? `${path}${path.endsWith('?') ? '' : m[2] ? '&' : '?'}${q}` : path;
}

// [lo, hi] of a step selector text, or null.
function bounds(step) {
	const m = /^(\d+)(?:-(\d+))?$/.exec(step || '');
	return m ? [+m[1], +(m[2] ?? m[1])] : null;
}

// true when step (a steps row's "step" text) is in the selection of s
export function stepSelected(s, step) {
	const b = bounds(s.step);
	return !!b && /^\d+$/.test(step) && +step >= b[0] && +step <= b[1];
}

// The chip's text: "Step 3", "Steps 3–5", "Range NAME"; '' when none.
export function selLabel(s) {
	const b = bounds(s.step);
	if (b) return b[0] === b[1] ? `Step ${b[0]}` : `Steps ${b[0]}–${b[1]}`;
	if (s.step) return `Step ${s.step}`;
	return s.range ? `Range ${s.range}` : '';
}

// The new hash state for selection sel ({step} or {range} or {}): the
// windows of the timeline and the memory curve (times from a different
// start) and an open detail panel go.
export function selectState(s, sel) {
	const { step, range, start, end, sel: open, ...rest } = s;
	return { ...rest, ...sel };
}

const stepsOf = new Map(); // file id -> the whole trace's step numbers (promise)
const namesOf = new Map(); // file id -> user annotation names (promise)
const latest = new WeakMap(); // host -> the token of the last call filling it

async function getJson(path) {
	const r = await fetch(path);
	if (!r.ok) throw new Error(`HTTP ${r.status}`);
	return r.json();
}

// Appends one option a step to select, "PREFIXn", as one HTML string:
// made one element each, the three lists of a trace of 1,800 steps held
// the page's main thread for 60 ms while it loaded. (Safe: steps holds
// digits only: renderSelector keeps those.)
function fillSteps(select, steps, prefix) {
	select.insertAdjacentHTML('beforeend', steps.map((n) => `<option value="${n}">${prefix}${n}</option>`).join(''));
}

// Fills host (the header's box) for file id and hash state s; go(state)
// writes a new hash. A file that is not a trace gets nothing.
// Two calls may overlap (an upload renders, and so does its hash change):
// each builds its own elements and puts them in at once, after its
// awaits, replacing what is there, so the header holds one selector.
export async function renderSelector(host, id, s, go, isTrace) {
	const token = {};
	latest.set(host, token);
	host.hidden = !isTrace;
	if (!isTrace) {
		host.replaceChildren();
		return;
	}
	if (!stepsOf.has(id))
		stepsOf.set(id, getJson(`/api/file/${id}/steps`).then((d) => d.steps.map((r) => r.step).filter((x) => /^\d+$/.test(x))).catch(() => []));
	if (!namesOf.has(id))
		namesOf.set(id, getJson(`/api/file/${id}/annotations`).then((d) => d.annotations.map((r) => r.name)).catch(() => []));
	const [steps, names] = await Promise.all([stepsOf.get(id), namesOf.get(id)]);
	if (latest.get(host) !== token) return; // a later call fills host
	const b = bounds(s.step);
	const isRange = !!b && b[0] !== b[1];
	const pick = el('select', { title: 'Analyse only these steps (--step)' });
	pick.dataset.testid = 'step-select';
	pick.append(el('option', { value: '', textContent: 'All steps' }));
	fillSteps(pick, steps, 'Step ');
	pick.append(el('option', { value: 'A-B', textContent: 'Steps A–B…' }));
	pick.value = !s.step ? '' : isRange ? 'A-B' : s.step;
	// a range: two selects, from and to, filled when a range is chosen
	const from = el('select', { title: 'First step' }), to = el('select', { title: 'Last step' });
	from.dataset.testid = 'step-from';
	to.dataset.testid = 'step-to';
	const fillSpan = () => {
		if (from.options.length) return;
		fillSteps(from, steps, '');
		fillSteps(to, steps, '');
		from.value = isRange ? String(b[0]) : steps[0] ?? '';
		to.value = isRange ? String(b[1]) : steps[steps.length - 1] ?? '';
	};
	if (isRange) fillSpan();
	const span = el('span', { className: 'stepsel-span', hidden: pick.value !== 'A-B' }, from, '–', to);
	const applySpan = () => {
		let a = +from.value, z = +to.value;
		if (z < a) [a, z] = [z, a];
		go(selectState(s, { step: a === z ? String(a) : `${a}-${z}` }));
	};
	from.addEventListener('change', applySpan);
	to.addEventListener('change', applySpan);
	pick.addEventListener('change', () => {
		if (pick.value === 'A-B') { fillSpan(); span.hidden = false; applySpan(); } else go(selectState(s, pick.value ? { step: pick.value } : {}));
	});
	// --range NAME, the trace's user annotations offered
	const list = el('datalist', { id: `stepsel-names-${id}` }, ...names.map((n) => el('option', { value: n })));
	const range = el('input', { type: 'text', value: s.range || '', placeholder: '--range NAME', title: 'Analyse only the first user annotation of this name (--range)' });
	range.setAttribute('list', list.id);
	range.dataset.testid = 'range-input';
	range.addEventListener('change', () => go(selectState(s, range.value ? { range: range.value } : {})));
	const kids = [pick, span, range, list];
	const label = selLabel(s);
	if (label) {
		const clear = el('button', { textContent: '×', title: 'Clear the selection: the whole trace' });
		clear.dataset.testid = 'sel-clear';
		clear.addEventListener('click', () => go(selectState(s, {})));
		const chip = el('span', { className: 'chip' }, el('span', { textContent: label }), clear);
		chip.dataset.testid = 'sel-chip';
		kids.push(chip);
	}
	host.replaceChildren(...kids);
}
