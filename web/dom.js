// dom: the element builders every page module uses (HTML and SVG).
// el(tag, {dataset, ...props}, ...kids): a new element with the properties
// assigned, the data-* attributes of dataset set, and the kids appended.
export const el = (tag, { dataset, ...props } = {}, ...kids) => {
	const e = Object.assign(document.createElement(tag), props);
	Object.assign(e.dataset, dataset || {});
	e.append(...kids);
	return e;
};

// svgEl(tag, attrs): a new SVG element with the attributes set.
export const svgEl = (tag, attrs = {}) => {
	const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
	for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
	return e;
};
