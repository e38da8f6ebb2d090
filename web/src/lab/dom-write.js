// DOM writes for what is redrawn on every frame: text and attributes are written only when they
// change (a write of the same value still invalidates layout or style).
export function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
export function setAttr(el, name, value) { if (el.getAttribute(name) !== value) el.setAttribute(name, value); }
export function setDisabled(el, off) { if (el.disabled !== off) el.disabled = off; }
