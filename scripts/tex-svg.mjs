// TeX -> self-contained SVG at build time (issue 24): the lab's formulas as paths, with no font, no
// stylesheet and no code at run time, so putting them on the page restyles nothing, loads nothing and
// lays out only their slot. MathJax 3 (mathjax-full, its TeX input and SVG output in node, on its
// liteAdaptor) draws the glyphs of its TeX fonts (Computer Modern, as KaTeX's) as paths; the speech
// rule engine (MathJax's own, ClearSpeak rules) reads the formula's MathML into the SVG's aria-label.
//
//   texToSvg(tex) -> '<svg role="img" aria-label="..." width="..em" height="..em" ...>...</svg>'
//
// Sizes in em of the SVG's parent, at KaTeX's 1.21 em (its .katex rule), so the formulas keep the size
// they had (MathJax writes ex, which would depend on the page font's x-height). Colour: currentColor.
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import { SVG } from 'mathjax-full/js/output/svg.js';
import { liteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import { AllPackages } from 'mathjax-full/js/input/tex/AllPackages.js';
import { STATE } from 'mathjax-full/js/core/MathItem.js';
import { SerializedMmlVisitor } from 'mathjax-full/js/core/MmlTree/SerializedMmlVisitor.js';
import SRE from 'speech-rule-engine';

// KaTeX's font size relative to its parent; MathJax's x-height in em of its TeX fonts (it writes
// its sizes in ex of that height)
export const FORMULA_EM = 1.21;
const X_HEIGHT = 0.442;

// Where ClearSpeak's English reads a notation of the lab's formulas oddly: ^\top, a superscript label
// (W^mm, W^fin: a name, "W mm", not a power), \| \| and s.t.
const SPEECH_FIXES = [
  [/ (raised )?to the normal down tack power/g, ' transpose'],
  [/ raised to the ([a-z]{2,}) power/g, ' $1'],
  [/\bthe ([a-z]{2,})-th power of (\w+)/g, '$2 $1'],
  [/\bthe metric of\b/g, 'the norm of'],
  [/\bs period t period\b/g, 'such that'],
];

let engine = null;
function setup() {
  return engine ??= (async () => {
    const adaptor = liteAdaptor();
    RegisterHTMLHandler(adaptor);
    const doc = mathjax.document('', { InputJax: new TeX({ packages: AllPackages }), OutputJax: new SVG({ fontCache: 'local' }) });
    await SRE.setupEngine({ locale: 'en', domain: 'clearspeak', modality: 'speech' });
    await SRE.engineReady();
    return { adaptor, doc, mml: new SerializedMmlVisitor() };
  })();
}

const exToEm = (ex) => `${+(parseFloat(ex) * X_HEIGHT * FORMULA_EM).toFixed(3)}em`;

// The spoken form of a formula (its aria-label)
export async function texToSpeech(tex) {
  const { doc, mml } = await setup();
  const speech = SRE.toSpeech(mml.visitTree(doc.convert(tex, { display: true, end: STATE.CONVERT })));
  return SPEECH_FIXES.reduce((s, [from, to]) => s.replace(from, to), speech).trim();
}

export async function texToSvg(tex) {
  const { adaptor, doc } = await setup();
  const node = doc.convert(tex, { display: true });
  const svg = adaptor.firstChild(node);
  if (adaptor.kind(svg) !== 'svg') throw new Error(`texToSvg: MathJax gave no SVG for ${tex}`);
  // a TeX error is drawn (red, with the message) rather than thrown: fail the build instead
  const error = adaptor.innerHTML(node).match(/data-mjx-error="([^"]*)"/);
  if (error) throw new Error(`texToSvg: ${error[1]} in ${tex}`);
  for (const attr of ['width', 'height']) adaptor.setAttribute(svg, attr, exToEm(adaptor.getAttribute(svg, attr)));
  adaptor.removeAttribute(svg, 'style');  // (its vertical-align: the slot centres the formula)
  adaptor.removeAttribute(svg, 'focusable');
  adaptor.removeAttribute(svg, 'xmlns:xlink');
  adaptor.setAttribute(svg, 'aria-label', await texToSpeech(tex));  // (the adaptor escapes it)
  // SVG 2's href (every browser the lab runs in) for the glyphs' <use> (one path per glyph a formula
  // uses), and without the MathML node names and characters MathJax's own explorer reads (a third of
  // the markup: the aria-label reads the formula)
  return adaptor.outerHTML(svg).replace(/ xlink:href=/g, ' href=').replace(/ data-(mml-node|c|mjx-[\w-]+)="[^"]*"/g, '');
}
