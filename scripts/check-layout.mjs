// The architecture's rules, checked on the source tree (docs/ARCHITECTURE.md; run by
// tests/docs/architecture.test.mjs in `npm test`'s first stage, or alone: `node scripts/check-layout.mjs`).
//   1. The core's files live in layer folders: nothing flat in core/src/ or core/include/attnsvm/
//      (but the umbrella attnsvm.hpp), and every folder there is a layer named below.
//   2. The maths never includes a driver: no file of a maths layer includes attnsvm/experiments/...
//      or a private experiments/... header.
//   3. The bottom layer stands alone: base/ includes only base/ (and the standard library, Eigen).
//   3b. Layer order: a file of a layer includes only its own layer and the layers below it, in the
//      order of LAYERS (base, data, model, train, solvers, analysis, vocab, experiments); the
//      remaining back-edges are listed, each with its reason, in KNOWN_BACK_EDGES.
//   3c. Public headers declare only what their layer's library defines: no class declared in a
//      maths header has its members defined in experiments/, no function declared in a maths
//      header is defined only there (a consumer of attnsvm::core alone would not link).
//   3d. The unity build needs no renamed copies: no two files of the core define file-local
//      functions (anonymous namespace) with the same name and parameters (they would collide in
//      one batch), nor with the same body under two names (one shared definition instead).
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
export const LAYERS = [...MATHS_LAYERS, ...DRIVER_LAYERS];
// Includes that go up the order and are known, each with its reason (file -> included header).
// Every other upward include is a violation; an entry that no longer occurs is one too (stale).
// None today (issue 39): the wire names of SolveStatus, SvmProblemKind and Verdict moved beside their
// enums (solvers/wire_names.cpp, analysis/selection.cpp), as the optimizers' and norms' had
// (train/optimizers.cpp, solvers/norms.cpp); vocab/names.cpp reads them all from below.
export const KNOWN_BACK_EDGES = {};

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

// Top-level declarations of a header: class/struct names with a body, and function names declared
// at column 0 (`Type name(...)...;`).
function declarations(text) {
  const classes = [...text.matchAll(/^(?:class|struct)\s+(\w+)\s*(?::[^{;]*)?\{/gm)].map((m) => m[1]);
  const functions = [...text.matchAll(/^(?!return\b|using\b|template\b|namespace\b|typedef\b)\w[\w:<>,*& ]*?[\w>*&]\s+\**&?(\w+)\([^;{]*\)[^;{]*;/gm)].map((m) => m[1]);
  return { classes, functions };
}
// Definitions of a source file: Class::member( at column 0 (or after a return type), and free
// functions defined at column 0 or in a namespace block (`Type name(...) {`, no `;` before `{`).
function definitions(text) {
  const members = [...text.matchAll(/^(?:[\w:<>,*& ]+\s)?(\w+)::~?\w+\(/gm)].map((m) => m[1]);
  const functions = [...text.matchAll(/^\s{0,2}(?!return\b|else\b|if\b|for\b|while\b|switch\b)[\w:<>,*& ]*?[\w>*&]\s+\**&?(\w+)\([^;{]*\)[^;{]*\{/gm)].map((m) => m[1]);
  return { members, functions };
}

function checkLibraries(root, report) {
  const header = (layerSet) => walk(join(root, 'core/include/attnsvm')).filter((f) => /\.hpp$/.test(f) && layerSet.includes(layerOf(root, f)));
  const sources = (layerSet) => walk(join(root, 'core/src')).filter((f) => /\.cpp$/.test(f) && layerSet.includes(layerOf(root, f)));
  const mathsDefined = new Set(), driverMembers = new Map(), driverFunctions = new Map();
  for (const f of sources(MATHS_LAYERS)) {
    const d = definitions(readFileSync(f, 'utf8'));
    for (const n of [...d.members, ...d.functions]) mathsDefined.add(n);
  }
  for (const f of sources(DRIVER_LAYERS)) {
    const d = definitions(readFileSync(f, 'utf8'));
    for (const n of d.members) if (!driverMembers.has(n)) driverMembers.set(n, f);
    for (const n of d.functions) if (!driverFunctions.has(n)) driverFunctions.set(n, f);
  }
  for (const h of header(MATHS_LAYERS)) {
    const text = readFileSync(h, 'utf8');
    const { classes, functions } = declarations(text);
    for (const c of classes)
      if (driverMembers.has(c) && !mathsDefined.has(c))
        report(h, 0, 'library', `declares ${c}, whose members ${relative(root, driverMembers.get(c))} (attnsvm::experiments) defines: declare it in core/include/attnsvm/experiments/`);
    for (const fn of functions)
      if (driverFunctions.has(fn) && !mathsDefined.has(fn))
        report(h, 0, 'library', `declares ${fn}(), which only ${relative(root, driverFunctions.get(fn))} (attnsvm::experiments) defines`);
  }
}

// The file-local functions of a source (in an anonymous namespace): name, parameters, body.
function fileLocals(text) {
  const out = [];
  const re = /namespace\s*\{/g;
  let m;
  while ((m = re.exec(text))) {
    let depth = 1, i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
    }
    const block = text.slice(start, i - 1);
    const level = [];  // brace depth inside the block at each offset: functions at depth 0 only
    for (let k = 0, dd = 0; k < block.length; k++) {
      level.push(dd);
      if (block[k] === '{') dd++;
      else if (block[k] === '}') dd--;
    }
    const fn = /^\s{0,4}(?!return\b|else\b|if\b|for\b|while\b|switch\b|struct\b|class\b)[\w:<>,*& ]*?[\w>*&]\s+\**&?(\w+)\(([^;{]*)\)[^;{]*\{/gm;
    let f;
    while ((f = fn.exec(block))) {
      if (level[f.index] !== 0) continue;
      let d = 1, j = f.index + f[0].length;
      for (; j < block.length && d > 0; j++) {
        if (block[j] === '{') d++;
        else if (block[j] === '}') d--;
      }
      const body = block.slice(f.index + f[0].length, j - 1).replace(/\/\/.*$/gm, '').replace(/\s+/g, ' ').trim();
      const params = f[2].replace(/\/\*.*?\*\//g, '').split(',').map((p) => p.trim().replace(/\s*=.*$/, '').replace(/\s+\w+$/, '')).join(',');
      out.push({ name: f[1], params, body });
      fn.lastIndex = j;
    }
    re.lastIndex = i;
  }
  return out;
}

function checkFileLocals(root, files, report) {
  for (const layers of [MATHS_LAYERS, DRIVER_LAYERS])  // one library at a time (one unity target)
    checkLibraryLocals(root, files.filter((x) => x.endsWith('.cpp') && layers.includes(layerOf(root, x))), report);
}
function checkLibraryLocals(root, files, report) {
  const bySignature = new Map(), byBody = new Map();
  for (const f of files) {
    for (const { name, params, body } of fileLocals(readFileSync(f, 'utf8'))) {
      const sig = `${name}(${params})`;
      const other = bySignature.get(sig);
      if (other && other !== f)
        report(f, 0, 'unity', `file-local ${sig} is also defined in ${relative(root, other)}: one shared definition (or different names for different things)`);
      else bySignature.set(sig, f);
      if (body.length < 80) continue;  // one-liners may coincide
      const seen = byBody.get(body);
      if (seen && seen.file !== f)
        report(f, 0, 'unity', `file-local ${name}() has the body of ${seen.name}() in ${relative(root, seen.file)}: one shared definition`);
      else if (!seen) byBody.set(body, { file: f, name });
    }
  }
}

export function checkLayout(root, knownEdges = KNOWN_BACK_EDGES) {
  const problems = [];
  const seenEdges = new Set();
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
      if (LAYERS.includes(layer) && LAYERS.includes(target) && layer !== 'base' &&
          !(MATHS_LAYERS.includes(layer) && DRIVER_LAYERS.includes(target)) &&
          LAYERS.indexOf(target) > LAYERS.indexOf(layer)) {
        const edge = `${relative(root, file)} -> ${inc.path}`;
        if (edge in knownEdges) seenEdges.add(edge);
        else report(file, inc.line, 'layer order', `the ${layer}/ layer includes "${inc.path}" of the higher ${target}/ layer (order: ${LAYERS.join(' < ')})`);
      }
    }
  }
  for (const edge of Object.keys(knownEdges))
    if (!seenEdges.has(edge) && existsSync(join(root, edge.split(' -> ')[0])))
      report(join(root, edge.split(' -> ')[0]), 0, 'layer order', `KNOWN_BACK_EDGES lists "${edge}", which no longer occurs: remove it`);

  // 3c. A maths header declares nothing that only the drivers' library defines.
  checkLibraries(root, report);
  // 3d. No file-local copies kept apart for the unity build.
  checkFileLocals(root, privateFiles, report);

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
