// docs/ARCHITECTURE.md's checklists stay true: every file they name exists, and every type, function,
// registry and test they name (in backticks) is found in one of the files the same checklist names
// (a folder: any file in it). A rename that the map does not follow fails here; so does a checklist
// that names a thing in the wrong file. The checker is tried on planted violations too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const PATH = /^(core|cli|wasm|web|tests|bench|scripts|docs)\//;

function filesUnder(p) {
  if (!existsSync(p)) return [];
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p).flatMap((n) => filesUnder(join(p, n)));
}

// The checklists of a map: { title, paths, names } per bold-titled paragraph of its Checklists section.
export function checklists(map) {
  const start = map.indexOf('## Checklists');
  assert.ok(start >= 0, 'docs/ARCHITECTURE.md has a Checklists section');
  const section = map.slice(start).split(/\n(?=\*\*)/).filter((p) => p.startsWith('**'));
  return section.map((text) => {
    const title = /^\*\*([^*]+)\*\*/.exec(text)[1];
    const tokens = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/[:,]$/, ''));
    const paths = tokens.filter((t) => PATH.test(t) && !/[<>*{}]/.test(t));
    const names = tokens.filter((t) => !PATH.test(t) && /^(enum )?[A-Za-z_][\w]*((::|\.)(~?\w+|\*))?$/.test(t));
    return { title, paths, names };
  });
}

// How a name is looked for in a file's text: a test suite `Suite.*` / `Suite.Name` as its TEST
// macro, `Class::member` as both words, `enum X` as written, anything else as a word.
function found(name, text) {
  const word = (w) => new RegExp(`\\b${w.replace(/[$]/g, '\\$&')}\\b`).test(text);
  let m;
  if ((m = /^(\w+)\.\*$/.exec(name))) return new RegExp(`TEST(_F)?\\(${m[1]},`).test(text);
  if ((m = /^(\w+)\.(\w+)$/.exec(name))) return new RegExp(`TEST(_F)?\\(${m[1]},\\s*${m[2]}\\)`).test(text);
  if ((m = /^(\w+)::(~?\w+)$/.exec(name))) return word(m[1]) && word(m[2]);
  if ((m = /^enum (\w+)$/.exec(name))) return new RegExp(`enum (class )?${m[1]}\\b`).test(text);
  return word(name);
}

export function checkChecklists(rootDir, map) {
  const problems = [];
  for (const { title, paths, names } of checklists(map)) {
    const texts = [];
    for (const p of paths) {
      const full = join(rootDir, p);
      if (!existsSync(full)) problems.push(`${title}: names ${p}, which does not exist`);
      else for (const f of filesUnder(full)) texts.push(readFileSync(f, 'utf8'));
    }
    for (const n of names)
      if (!texts.some((t) => found(n, t))) problems.push(`${title}: names \`${n}\`, found in none of its files (${paths.join(', ')})`);
  }
  return problems;
}

const map = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');

test('every checklist of docs/ARCHITECTURE.md names files that exist and things that are in them', () => {
  const lists = checklists(map);
  assert.deepEqual(lists.map((l) => l.title.replace(/\.$/, '')),
    ['An optimizer', 'A norm', 'An experiment', 'A scenario', 'A lab panel', 'A field']);
  // the registries are named, each with its file
  const names = lists.flatMap((l) => l.names);
  for (const r of ['optimizerRegistry', 'normRegistry', 'seedExperimentRegistry', 'experimentRegistry', 'OPTIMIZERS', 'SCENARIO_INFO'])
    assert.ok(names.includes(r), r);
  assert.deepEqual(checkChecklists(root, map), []);
});

test('the checker reports a renamed function, a thing in the wrong file and a missing file', () => {
  const one = '## Checklists\n\n**An optimizer.** `core/src/train/optimizers.cpp` (`optimizerRegistry`).\n';
  assert.deepEqual(checkChecklists(root, one), []);
  assert.equal(checkChecklists(root, one.replace('(`optimizerRegistry`)', '(`optimizerTable`)')).length, 1);
  assert.equal(checkChecklists(root, one.replace('(`optimizerRegistry`)', '(`normRegistry`)')).length, 1);
  assert.equal(checkChecklists(root, one.replace('optimizers.cpp', 'optimisers.cpp')).length, 2);
  assert.equal(checkChecklists(root, one.replace('(`optimizerRegistry`)', '(`Names.*`)')).length, 1);
  // the one in docs/ARCHITECTURE.md before issue 39: `Names.*` was never in that file
  assert.equal(checkChecklists(root, '## Checklists\n\n**A field.** `tests/core/test_fields.cpp` (`Names.*`, `Fields.*`).\n').length, 1);
});
