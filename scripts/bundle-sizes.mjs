// Where a bundle's bytes go: a rollup plugin (vite.element.config.js, when ATTNSVM_SIZE_REPORT is
// set) that walks each output chunk's source map (minified code -> the module each span came from)
// and writes, per input module, its minified bytes and the gzip -9 size of those bytes alone.
// Gzip of a module alone over-counts a little (each module loses the dictionary the others would
// share), so the table also gives each module's share of the chunk's real gzip size, scaled from
// the sums: the numbers to compare across builds.
//
// It must run before any plugin that rewrites a chunk's code without updating its map (the
// element's inlineCss): the CSS is then measured as its own asset.
import { gzipSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

const gz = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;

// the module a map's source names, as a short key (node_modules/<package>, a repo path, or a vite id)
function moduleKey(source, root) {
  if (!source) return '(unmapped)';
  const clean = source.replace(/^(\.\.\/)+/, '/').replace(/\?.*$/, (q) => (q.includes('worker') ? q : ''));
  const pkg = clean.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `node_modules/${pkg[1]}`;
  return clean.startsWith('/') ? relative(root, clean) || clean : clean;
}

// Code no map names (rollup hoists the inlined worker's text and the virtual wasm module's string
// to the top, unmapped): its long string literals, each named by what it holds, and the rest.
function splitUnmapped(text) {
  const out = [];
  let rest = '', i = 0;
  while (i < text.length) {
    const q = text[i];
    if (q !== '"' && q !== "'" && q !== '`') { rest += q; i++; continue; }
    let j = i + 1;
    while (j < text.length && text[j] !== q) j += text[j] === '\\' ? 2 : 1;
    const literal = text.slice(i, j + 1);
    i = j + 1;
    if (literal.length < 4096) { rest += literal; continue; }
    const b64 = literal.match(/[A-Za-z0-9+/]{4096,}={0,2}/);
    const what = b64 ? 'wasm module string' : `string ${JSON.stringify(literal.slice(1, 25))}…`;
    if (b64) {
      out.push([`${what}: base64 of the gzipped .wasm`, b64[0]]);
      out.push([`${what}: Emscripten glue + unpacking`, literal.replace(b64[0], '')]);
    } else out.push([what, literal]);
  }
  out.push(['(unmapped)', rest]);
  return out;
}

// [{ module, raw, gzAlone }] of one chunk: each generated span between two mappings goes to the
// module of the first.
export function attribute(code, map, root) {
  const lineStart = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStart.push(i + 1);
  const spans = [];
  new SourceMapConsumer(map).eachMapping((m) => {
    spans.push({ at: lineStart[m.generatedLine - 1] + m.generatedColumn, key: moduleKey(m.source, root) });
  }, null, SourceMapConsumer.GENERATED_ORDER);
  const parts = new Map();
  const add = (key, from, to) => { if (to > from) (parts.get(key) ?? parts.set(key, []).get(key)).push(code.slice(from, to)); };
  add('(unmapped)', 0, spans[0]?.at ?? code.length);
  spans.forEach((s, i) => add(s.key, s.at, spans[i + 1]?.at ?? code.length));
  const unmapped = parts.get('(unmapped)');
  if (unmapped) {
    parts.delete('(unmapped)');
    for (const [key, text] of splitUnmapped(unmapped.join(''))) (parts.get(key) ?? parts.set(key, []).get(key)).push(text);
  }
  return [...parts].map(([module, texts]) => ({ module, raw: texts.reduce((s, t) => s + t.length, 0), gzAlone: gz(texts.join('')) }));
}

export function bundleSizes({ out, root }) {
  return {
    name: 'attnsvm-bundle-sizes',
    enforce: 'post',
    generateBundle(_, bundle) {
      const report = {};
      for (const [name, item] of Object.entries(bundle)) {
        if (item.type === 'asset') {
          const text = String(item.source);
          report[name] = { raw: text.length, gz: gz(text), modules: [{ module: name, raw: text.length, gzAlone: gz(text) }] };
          continue;
        }
        if (!item.map) this.error(`${name} has no source map (the size report needs build.sourcemap)`);
        const modules = attribute(item.code, item.map, root).sort((a, b) => b.gzAlone - a.gzAlone);
        const total = gz(item.code), alone = modules.reduce((s, m) => s + m.gzAlone, 0);
        for (const m of modules) m.gzShare = Math.round(m.gzAlone * total / alone);
        report[name] = { raw: item.code.length, gz: total, modules };
      }
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(report, null, 1));
      for (const [name, r] of Object.entries(report)) {
        console.log(`${name}: ${(r.raw / 1024).toFixed(1)} KB raw, ${(r.gz / 1024).toFixed(1)} KB gz`);
        for (const m of r.modules.slice(0, 25)) {
          console.log(`  ${((m.gzShare ?? m.gzAlone) / 1024).toFixed(1).padStart(6)} KB gz share ${(m.gzAlone / 1024).toFixed(1).padStart(6)} alone ${(m.raw / 1024).toFixed(1).padStart(7)} raw  ${m.module}`);
        }
      }
    },
  };
}
