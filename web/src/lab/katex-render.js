// KaTeX for the lab's formulas, in a chunk of its own (with its CSS): loaded after the first frame.
// typesetInto(div, formulas, current): typesets off screen, waits for the fonts the formulas use,
// then moves each into its fixed-height slot (div's children, layout.js's formulaSlot), so that
// neither the typesetting nor a font swap moves the page. current() false: a newer scenario won.
import katex from 'katex';
import 'katex/dist/katex.min.css';

export async function typesetInto(div, formulas, current) {
  const stage = document.createElement('div');
  stage.setAttribute('aria-hidden', 'true');
  Object.assign(stage.style, { position: 'absolute', left: '-10000px', top: '0', visibility: 'hidden', width: '2000px' });
  // one formula a task (typesetting is synchronous: keep each task short)
  const rendered = [];
  for (const f of formulas) {
    const el = document.createElement('div');
    katex.render(f, el, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
    rendered.push(el);
    await new Promise((r) => setTimeout(r, 0));
    if (!current()) return;
  }
  stage.append(...rendered);
  document.body.append(stage);
  try {
    // the browser lays the stage out in its next frame (not forced here: a forced layout of the page
    // took 76 ms in one task), which starts loading the fonts the formulas use; then wait for them
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await document.fonts?.ready;
  } finally {
    stage.remove();
  }
  if (!current()) return;
  const slots = [...div.children];
  rendered.forEach((el, i) => slots[i]?.replaceChildren(...el.childNodes));
}
