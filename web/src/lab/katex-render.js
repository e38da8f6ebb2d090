// The lab's formulas, typeset by KaTeX at build time (vite.config.js's labFormulas: TeX -> HTML), in
// a chunk of its own with KaTeX's CSS: loaded after the first frame.
// typesetInto(div, formulas, current): puts the formulas off screen, waits for the fonts they use,
// then moves each into its fixed-height slot (div's children, layout.js's formulaSlot), so that
// neither the formulas nor a font swap move the page. current() false: a newer scenario won.
import FORMULAS from 'virtual:lab-formulas';
import 'katex/dist/katex.min.css';

export async function typesetInto(div, formulas, current) {
  const stage = document.createElement('div');
  stage.setAttribute('aria-hidden', 'true');
  Object.assign(stage.style, { position: 'absolute', left: '-10000px', top: '0', visibility: 'hidden', width: '2000px' });
  const rendered = formulas.map((f) => {
    const el = document.createElement('div');
    if (Object.hasOwn(FORMULAS, f)) el.innerHTML = FORMULAS[f];
    else el.textContent = f;  // (every scenario formula is typeset at build time)
    return el;
  });
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
