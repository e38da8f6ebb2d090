// The lab's message box (errors and notices, one per key, each dismissible): what the page says
// went wrong, while it keeps its state.
export function createMessages(box) {
  const messages = new Map(); // key -> text
  function set(key, text) {
    if (text) messages.set(key, text); else messages.delete(key);
    box.replaceChildren(...[...messages].map(([k, t]) => {
      const div = document.createElement('div');
      div.className = 'msg';
      div.dataset.key = k;
      const span = document.createElement('span');
      span.textContent = t;
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = '×'; b.setAttribute('aria-label', 'Dismiss message');
      b.onclick = () => set(k, null);
      div.append(span, b);
      return div;
    }));
  }
  return { set, values: () => [...messages.values()] };
}
