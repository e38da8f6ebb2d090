// The lab's formulas, typeset by KaTeX at build time (vite.config.js's labFormulas: TeX -> HTML), in
// a chunk of its own with KaTeX's CSS: loaded after the first frame.
// typesetInto(div, formulas, current): puts each formula into its fixed-height slot (div's children,
// layout.js's formulaSlot, a box of its own: lab.css contains it), hidden until the fonts it uses have
// loaded, so that neither the formulas nor a font swap move the page, and the formulas are laid out
// where they stay (an off-screen stage laid them out a second time: 30-80 ms of layout after the first
// frame). current() false: a newer scenario won.
import FORMULAS from 'virtual:lab-formulas';
import 'katex/dist/katex.min.css';

export async function typesetInto(div, formulas, current) {
  const slots = [...div.children];
  const rendered = formulas.map((f, i) => {
    const el = document.createElement('div');
    el.className = 'formula-tex';
    el.style.visibility = 'hidden';
    if (Object.hasOwn(FORMULAS, f)) el.innerHTML = FORMULAS[f];
    else el.textContent = f;  // (every scenario formula is typeset at build time)
    slots[i]?.replaceChildren(el);
    return el;
  });
  // the browser lays the formulas out in its next frame (not forced here: a forced layout of the page
  // took 76 ms in one task), which starts loading the fonts they use; then wait for them
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await document.fonts?.ready;
  if (!current()) return;
  for (const el of rendered) el.style.visibility = '';
}
