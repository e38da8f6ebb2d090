// The JS API as a user gets it: `npm pack` of the package (scripts/pack-npm.mjs), installed into a
// throwaway node project from the tarball alone (no registry), then a solve with its certificate and
// 100 training steps through the package's public entry points, in a fresh node process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

test('npm pack -> npm install -> solve and 100 training steps', () => {
  const tarball = execFileSync('node', [resolve(root, 'scripts/pack-npm.mjs')], { encoding: 'utf8' }).trim().split('\n').pop();
  assert.match(tarball, /attnsvm-\d+\.\d+\.\d+\.tgz$/);
  const dir = mkdtempSync(join(tmpdir(), 'attnsvm-npm-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir, stdio: 'pipe' });
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/attnsvm/package.json'), 'utf8'));
    assert.equal(manifest.types, './types/attnsvm.d.ts');
    assert.ok(manifest.exports['.'] && manifest.exports['./worker'], 'exports map has . and ./worker');
    writeFileSync(join(dir, 'demo.mjs'), `
      import { createEngine, AttnsvmError } from 'attnsvm';
      const engine = await createEngine();
      const dataset = engine.sphere(6, 8, 10, 3);
      const svm = engine.solve({ dataset, norm: 'fro' });
      const run = engine.train({
        dataset,
        model: { attention: 'cross', param: 'W', head: 'linear', loss: 'logistic' },
        train: { optimizer: 'ngd', lr: 0.1 },
        init: { kind: 'zero' },
        references: [{ name: 'fro', W: svm.W }],
      });
      const chunk = run.step(100);
      run.dispose();
      let error = null;
      try { engine.solve({ dataset: { ...dataset, Y: [1] }, norm: 'fro' }); } catch (e) { error = e; }
      console.log(JSON.stringify({ status: svm.status, gap: svm.gap, violation: svm.maxViolation,
        frames: chunk.frames, lastIteration: chunk.iteration.at(-1), loss0: chunk.loss[0], loss: chunk.loss.at(-1),
        corr: chunk.corr.at(-1), errorIsTyped: error instanceof AttnsvmError, message: error && error.message }));
    `);
    const r = JSON.parse(execFileSync('node', ['demo.mjs'], { cwd: dir, encoding: 'utf8' }));
    assert.equal(r.status, 'optimal');
    assert.ok(r.gap <= 1e-8 && r.violation <= 1e-9, `certificate: gap ${r.gap}, violation ${r.violation}`);
    assert.equal(r.frames, 101);
    assert.equal(r.lastIteration, 100);
    assert.ok(r.loss < r.loss0, `loss decreases: ${r.loss0} -> ${r.loss}`);
    assert.ok(r.corr > 0.5, `W turns toward W^mm: corr ${r.corr}`);
    assert.ok(r.errorIsTyped, 'bad input throws AttnsvmError');
    assert.match(r.message, /Y/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
