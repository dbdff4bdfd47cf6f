// palette: one colour per part of the step-time breakdown, keyed by the
// part's name (the Overview's "part" column), so a part has the same colour
// on every page and in every trace. The Steps page's columns name the same
// parts by key (cpu_exec_ns); partOfKey maps them.

const PARTS = {
	Kernel: '#4e79a7',
	Memcpy: '#f28e2b',
	Memset: '#e15759',
	Communication: '#76b7b2',
	Runtime: '#59a14f',
	DataLoader: '#edc948',
	'CPU Exec': '#b07aa1',
	Other: '#9c755f',
};
const UNKNOWN = '#bab0ac';

const KEYS = {
	kernel_ns: 'Kernel', memcpy_ns: 'Memcpy', memset_ns: 'Memset', communication_ns: 'Communication',
	runtime_ns: 'Runtime', dataloader_ns: 'DataLoader', cpu_exec_ns: 'CPU Exec', other_ns: 'Other',
};

// The part name of a Steps column key; the key without its unit when unknown.
export const partOfKey = (key) => KEYS[key] ?? key.replace(/_ns$/, '').replace(/_/g, ' ');

// The colour of part name (a part the palette does not know: grey).
export const partColor = (name) => PARTS[name] ?? UNKNOWN;
