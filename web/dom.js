// dom: the one element builder every page module uses.
// el(tag, {dataset, ...props}, ...kids): a new element with the properties
// assigned, the data-* attributes of dataset set, and the kids appended.
export const el = (tag, { dataset, ...props } = {}, ...kids) => {
	const e = Object.assign(document.createElement(tag), props);
	Object.assign(e.dataset, dataset || {});
	e.append(...kids);
	return e;
};
