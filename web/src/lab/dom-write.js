// DOM writes for what is redrawn on every frame: text and attributes are written only when they
// change (a write of the same value still invalidates layout or style).
export function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
export function setAttr(el, name, value) { if (el.getAttribute(name) !== value) el.setAttribute(name, value); }
// a property (value, checked, hidden, disabled, an option's text)
export function setProp(el, name, value) { if (el[name] !== value) el[name] = value; }
export const setDisabled = (el, off) => setProp(el, 'disabled', off);
