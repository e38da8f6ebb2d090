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
  const rendered = formulas.map((f) => {
    const el = document.createElement('div');
    katex.render(f, el, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
    return el;
  });
  stage.append(...rendered);
  document.body.append(stage);
  try {
    void stage.offsetWidth;           // lays the text out: the fonts it needs start loading
    await document.fonts?.ready;
  } finally {
    stage.remove();
  }
  if (!current()) return;
  const slots = [...div.children];
  rendered.forEach((el, i) => slots[i]?.replaceChildren(...el.childNodes));
}
