// The lab's formulas, typeset at build time as self-contained SVG (vite.config.js's labFormulas,
// scripts/tex-svg.mjs: glyphs as paths, colour currentColor, role="img" with the spoken formula as
// its aria-label), one small chunk per scenario, loaded after the first frame.
// putFormulas(div, scenario, current): puts the scenario's formulas into their fixed-height slots
// (div's children, layout.js's formulaSlot, each a box of its own: lab.css contains it), so that they
// lay out only their slots, and use no font and no stylesheet (nothing else on the page is restyled).
// current() false: a newer scenario won.
import LOADERS from 'virtual:lab-formulas';

export async function putFormulas(div, scenario, current) {
  const svg = await LOADERS[scenario]?.().then((m) => m.default);
  if (!svg || !current()) return;
  [...div.children].forEach((slot, i) => { slot.innerHTML = svg[i] ?? ''; });
}
