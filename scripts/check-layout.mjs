// The architecture's rules, checked on the source tree (docs/ARCHITECTURE.md; run by
// tests/docs/architecture.test.mjs in `npm test`'s first stage, or alone: `node scripts/check-layout.mjs`).
//   1. The core's files live in layer folders: nothing flat in core/src/ or core/include/attnsvm/
//      (but the umbrella attnsvm.hpp), and every folder there is a layer named below.
//   2. The maths never includes a driver: no file of a maths layer includes attnsvm/experiments/...
//      or a private experiments/... header.
//   3. The bottom layer stands alone: base/ includes only base/ (and the standard library, Eigen).
//   4. Public headers (core/include/attnsvm/) include only public headers: what is installed compiles.
//   5. The bindings (wasm/) and the CLI (cli/) never reach into the core's private headers
//      (core/src/): not by an #include that names one, not by an include directory.
//   6. docs/ARCHITECTURE.md stays true: every path it names (in backticks) exists.
// Exits 1 and prints every violation (file, line, rule) when one is found.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

// The maths (attnsvm::core) bottom up, then the drivers (attnsvm::experiments). Keep in step with
// core/CMakeLists.txt and docs/ARCHITECTURE.md.
export const MATHS_LAYERS = ['base', 'data', 'model', 'train', 'solvers', 'analysis', 'vocab'];
export const DRIVER_LAYERS = ['experiments'];
const LAYERS = [...MATHS_LAYERS, ...DRIVER_LAYERS];

function walk(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}
const isCpp = (p) => /\.(cpp|hpp|h)$/.test(p);

function includes(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  lines.forEach((text, i) => {
    const m = /^\s*#\s*include\s+["<]([^">]+)[">]/.exec(text);
    if (m) out.push({ path: m[1], quoted: text.includes('"'), line: i + 1 });
  });
  return out;
}

// The layer of a file under core/src/ or core/include/attnsvm/ (its first folder), or null.
function layerOf(root, file) {
  for (const top of ['core/src', 'core/include/attnsvm']) {
    const rel = relative(join(root, top), file);
    if (!rel.startsWith('..') && rel.includes('/')) return rel.split('/')[0];
  }
  return null;
}
// The layer an include names: attnsvm/<layer>/... (public) or <layer>/... (private, from core/src).
function includedLayer(inc) {
  const parts = inc.path.split('/');
  if (parts[0] === 'attnsvm' && parts.length > 2) return parts[1];
  if (inc.quoted && parts.length > 1 && LAYERS.includes(parts[0])) return parts[0];
  return null;
}

export function checkLayout(root) {
  const problems = [];
  const report = (file, line, rule, what) =>
    problems.push(`${relative(root, file)}${line ? ':' + line : ''}: ${rule}: ${what}`);

  // 1. Layer folders only.
  for (const top of ['core/src', 'core/include/attnsvm']) {
    const dir = join(root, top);
    if (!existsSync(dir)) { report(dir, 0, 'layout', 'missing'); continue; }
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (!LAYERS.includes(name)) report(p, 0, 'layout', `folder "${name}" is no layer (${LAYERS.join(', ')})`);
      } else if (!(top === 'core/include/attnsvm' && name === 'attnsvm.hpp')) {
        report(p, 0, 'layout', 'a file directly in the flat folder: move it into its layer (scripts/dev/relayout.sh)');
      }
    }
  }
  const privateFiles = walk(join(root, 'core/src')).filter(isCpp);
  const privatePaths = new Set(privateFiles.map((f) => relative(join(root, 'core/src'), f)));
  const privateNames = new Set(privateFiles.filter((f) => f.endsWith('.hpp')).map((f) => basename(f)));

  // 2-4. Direction inside the core.
  const coreFiles = [...privateFiles, ...walk(join(root, 'core/include/attnsvm')).filter(isCpp)];
  for (const file of coreFiles) {
    const layer = layerOf(root, file);
    const isPublic = !relative(join(root, 'core/include'), file).startsWith('..');
    for (const inc of includes(file)) {
      const target = includedLayer(inc);
      if (MATHS_LAYERS.includes(layer) && DRIVER_LAYERS.includes(target))
        report(file, inc.line, 'maths -> driver', `the ${layer}/ layer includes "${inc.path}"`);
      if (layer === 'base' && target && target !== 'base')
        report(file, inc.line, 'base stands alone', `base/ includes "${inc.path}"`);
      if (isPublic && inc.quoted && !inc.path.startsWith('attnsvm/'))
        report(file, inc.line, 'public -> private', `an installed header includes "${inc.path}"`);
    }
  }

  // 5. The seams never reach into core/src.
  for (const seam of ['cli', 'wasm']) {
    for (const file of walk(join(root, seam))) {
      if (isCpp(file)) {
        for (const inc of includes(file)) {
          if (!inc.quoted) continue;
          const own = existsSync(join(dirname(file), inc.path)) || existsSync(join(root, seam, inc.path));
          if (!own && (privatePaths.has(inc.path) || privateNames.has(basename(inc.path))))
            report(file, inc.line, `${seam} -> core private`, `includes the core's private header "${inc.path}"`);
        }
      } else if (basename(file) === 'CMakeLists.txt') {
        readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
          if (!text.trimStart().startsWith('#') && /core\/src\b/.test(text))
            report(file, i + 1, `${seam} -> core private`, 'an include directory or source in core/src');
        });
      }
    }
  }

  // 6. The map names only what exists.
  const mapFile = join(root, 'docs/ARCHITECTURE.md');
  if (!existsSync(mapFile)) report(mapFile, 0, 'map', 'docs/ARCHITECTURE.md is missing');
  else {
    readFileSync(mapFile, 'utf8').split('\n').forEach((text, i) => {
      for (const m of text.matchAll(/`([^`\s]+)`/g)) {
        const p = m[1].replace(/[:,]$/, '');
        if (!/^(core|cli|wasm|web|tests|bench|scripts|docs)\//.test(p) || /[*{}<>]/.test(p)) continue;
        if (!existsSync(join(root, p))) report(mapFile, i + 1, 'map', `names "${p}", which does not exist`);
      }
    });
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLayout(root);
  if (problems.length) {
    console.error(`check-layout: ${problems.length} violation(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('check-layout: the layers, the include direction and docs/ARCHITECTURE.md agree');
}
