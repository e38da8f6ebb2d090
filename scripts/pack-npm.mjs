#!/usr/bin/env node
// Builds the npm package of the JS API into build/npm/: assembles build/npm/attnsvm/ from
// web/package/ (package.json with the exports map, the node entry, README), web/src/engine/ (the
// engine, worker engine, worker and conversions), the hand-written types, the wasm builds from
// web/public/wasm/ and, when the site was built, dist/attnsvm-figure.js (and the hierarchy's and the
// real images' figure scripts beside it); then runs `npm pack`.
// Prints the tarball's path. Needs `bash scripts/build-wasm.sh` (and the experiments module) first.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, 'build/npm');
const pkgDir = resolve(out, 'attnsvm');
const wasmDir = resolve(root, 'web/public/wasm');

const required = ['attnsvm.js', 'attnsvm.wasm', 'attnsvm.single.js', 'attnsvm-experiments.js', 'attnsvm-experiments.wasm'];
for (const f of required) {
  if (!existsSync(resolve(wasmDir, f))) {
    console.error(`pack-npm: ${resolve(wasmDir, f)} is missing: run \`bash scripts/build-wasm.sh\` first`);
    process.exit(1);
  }
}

rmSync(pkgDir, { recursive: true, force: true });
mkdirSync(resolve(pkgDir, 'engine'), { recursive: true });
mkdirSync(resolve(pkgDir, 'types'), { recursive: true });
mkdirSync(resolve(pkgDir, 'wasm'), { recursive: true });

const version = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).version;
const manifest = JSON.parse(readFileSync(resolve(root, 'web/package/package.json'), 'utf8'));
manifest.version = version;
const figure = resolve(root, 'dist/attnsvm-figure.js');
if (!existsSync(figure)) {
  // Without a site build the package has no figure: drop the export rather than ship a dangling one.
  delete manifest.exports['./figure'];
  manifest.files = manifest.files.filter((f) => f !== 'attnsvm-figure.js');
  manifest.sideEffects = false;
  console.error('pack-npm: dist/attnsvm-figure.js not found (run the site build): packing without ./figure');
} else {
  cpSync(figure, resolve(pkgDir, 'attnsvm-figure.js'));
  // The hierarchy's and the real images' figures: code fetched by the element from next to its own
  // script (embed/figure-scripts.js; real images also need the site's data/ beside it).
  for (const f of ['attnsvm-figure-hierarchy.js', 'attnsvm-figure-real.js']) {
    cpSync(resolve(root, 'dist', f), resolve(pkgDir, f));
    manifest.files.push(f);
  }
}
writeFileSync(resolve(pkgDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
cpSync(resolve(root, 'web/package/node.js'), resolve(pkgDir, 'node.js'));
cpSync(resolve(root, 'web/package/README.md'), resolve(pkgDir, 'README.md'));
for (const f of ['engine.js', 'convert.js', 'worker-engine.js', 'worker.js']) {
  cpSync(resolve(root, 'web/src/engine', f), resolve(pkgDir, 'engine', f));
}
cpSync(resolve(root, 'web/src/engine/attnsvm.d.ts'), resolve(pkgDir, 'types/attnsvm.d.ts'));
for (const f of required) cpSync(resolve(wasmDir, f), resolve(pkgDir, 'wasm', f));
// The Emscripten glue is CommonJS / a classic script inside a "type": "module" package.
writeFileSync(resolve(pkgDir, 'wasm/package.json'), '{ "type": "commonjs" }\n');

const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: pkgDir, encoding: 'utf8' }).trim().split('\n').pop();
console.log(resolve(out, name));
