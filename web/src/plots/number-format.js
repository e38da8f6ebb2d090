// Tick labels of the uPlot charts (curves.js) as uPlot prints them (its numAxisVals: an
// Intl.NumberFormat of the browser's language, at most three decimals, digits grouped by three),
// written out for the English locales: the first use of Intl.NumberFormat in a page costs ~33 ms
// (ICU's number formatting set up) in the first chart's build, a main-thread task of the lab's
// start. Other languages keep Intl's labels (their separators differ).
//
// formatTick(v): '1,234.5' for 1234.5, as new Intl.NumberFormat('en-US').format(v) does: the
// shortest decimal of v rounded half away from zero to three decimals, trailing zeros dropped,
// a '-' kept on a negative value that rounds to 0 ('-0').
export function formatTick(v) {
  const a = Math.abs(v);
  if (!Number.isFinite(v) || a >= 1e21 || (a !== 0 && a < 1e-6)) return null;  // (exponent notation: not handled)
  let [int, frac = ''] = String(a).split('.');
  if (frac.length > 3) {
    const up = frac.charCodeAt(3) >= 53;  // '5'..'9': half away from zero on the shortest decimal
    let digits = BigInt(int + frac.slice(0, 3));
    if (up) digits += 1n;
    const s = digits.toString().padStart(4, '0');
    int = s.slice(0, -3); frac = s.slice(-3);
  }
  frac = frac.replace(/0+$/, '');
  const grouped = int.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${v < 0 || Object.is(v, -0) ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

// Whether the browser's language formats numbers as formatTick does (en, en-US, en-GB: ',' groups,
// '.' decimals; en-IN groups by lakhs, en-ZA uses spaces and commas).
const SAME_AS_EN_US = new Set(['en', 'en-US', 'en-GB']);
// (uPlot's axis `values`: the tick labels of a linear axis' splits, in the browser's language)
export function tickLabels(lang = globalThis.navigator?.language ?? 'en-US') {
  const fast = SAME_AS_EN_US.has(lang);
  let intl = null;
  return (u, splits) => splits.map((v) => {
    if (v == null) return '';
    const s = fast ? formatTick(v) : null;
    return s ?? (intl ??= new Intl.NumberFormat(lang)).format(v);
  });
}

// Intl's number formatting set up ahead, at idle, where the charts will use it (a language other than
// those formatTick writes out): its first use loads the locale's data (10-40 ms).
export function warmTickLabels(lang = globalThis.navigator?.language ?? 'en-US') {
  if (!SAME_AS_EN_US.has(lang)) new Intl.NumberFormat(lang).format(0.5);
}
