// A printed PDF's structure as the print test needs it, without a PDF library: Chromium writes a tagged
// PDF (page.pdf({ tagged: true })) whose <img> elements are /Figure structure elements with their alt
// text as /Alt; their objects may sit in compressed object streams, so every Flate stream is inflated
// and searched along with the file's plain text.
//   figureAlts(buffer) -> the /Alt strings of the /Figure elements, in file order
import { inflateSync } from 'node:zlib';

function pdfTexts(buf) {
  const texts = [buf.toString('latin1')];
  const bin = buf.toString('latin1');
  const re = /stream\r?\n/g;
  let m;
  while ((m = re.exec(bin))) {
    const start = m.index + m[0].length;
    const end = bin.indexOf('endstream', start);
    if (end < 0) break;
    try { texts.push(inflateSync(buf.subarray(start, end)).toString('latin1')); } catch { /* not Flate, or binary image data */ }
    re.lastIndex = end;
  }
  return texts;
}

// A PDF literal string (...) with its escapes, from position i (at the opening parenthesis).
function literal(text, i) {
  let depth = 0, out = '';
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') {
      const n = text[j + 1];
      const esc = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' }[n];
      if (esc !== undefined) { out += esc; j++; continue; }
      if (/[0-7]/.test(n)) { const oct = text.slice(j + 1, j + 4).match(/^[0-7]{1,3}/)[0]; out += String.fromCharCode(parseInt(oct, 8)); j += oct.length; continue; }
      continue;
    }
    if (c === '(') { if (depth++ > 0) out += c; continue; }
    if (c === ')') { if (--depth === 0) return out; out += c; continue; }
    out += c;
  }
  return out;
}

// UTF-16BE strings (with a byte order mark) become text; PDFDocEncoding is read as Latin-1.
function decode(s) {
  if (s.charCodeAt(0) === 0xfe && s.charCodeAt(1) === 0xff) {
    let out = '';
    for (let i = 2; i + 1 < s.length; i += 2) out += String.fromCharCode((s.charCodeAt(i) << 8) | s.charCodeAt(i + 1));
    return out;
  }
  return s;
}

export function figureAlts(buf) {
  const alts = [];
  for (const text of pdfTexts(buf)) {
    const re = /\/Alt\s*\(/g;
    let m;
    while ((m = re.exec(text))) alts.push(decode(literal(text, m.index + m[0].length - 1)));
    const hex = /\/Alt\s*<([0-9A-Fa-f\s]+)>/g;
    while ((m = hex.exec(text))) {
      const h = m[1].replace(/\s/g, '');
      alts.push(decode(Buffer.from(h, 'hex').toString('latin1')));
    }
  }
  return alts;
}
