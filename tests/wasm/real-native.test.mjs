// The native results the real-images view draws at load (web/src/real/native-results.js, made by
// scripts/real-native-results.mjs from the CLI): for the default pair (7 vs 9) the study, the ladder and
// the phase diagram each have rows to draw, a caption, and a note naming the command and its date; another
// pair has none (its panel waits for Run, instead of showing numbers of another task). Pure JS: no wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nativeResult } from '../../web/src/real/native.js';
import { NATIVE_RESULTS } from '../../web/src/real/native-results.js';
import {
  studyRows, ladderRows, phaseRows, studyCaption, ladderCaption, phaseCaption,
} from '../../web/src/real/plan-text.js';

const ROWS = { study: studyRows, ladder: ladderRows, phase: phaseRows };
const CAPTION = { study: studyCaption, ladder: ladderCaption, phase: phaseCaption };

test('at load the study, the ladder and the phase diagram have a native result to draw (7 vs 9)', () => {
  for (const kind of ['study', 'ladder', 'phase']) {
    const r = nativeResult(kind, 7, 9);
    assert.ok(r, `${kind}: a native result`);
    const rows = ROWS[kind](r.table);
    assert.ok(rows.length > 0, `${kind}: rows`);
    assert.ok(CAPTION[kind](r.table).length > 40, `${kind}: a caption`);
    assert.match(r.note, /^Native result, computed by the CLI on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(commit [0-9a-f]+, \d+(\.\d)? CPU (seconds|minutes|hours)\): attnsvm experiment real-/);
    assert.match(NATIVE_RESULTS[kind].made.command, new RegExp(`^attnsvm experiment real-${kind} `));
  }
  // the phase diagram's cells: every (d, n) of its settings for each head and method, degenerate runs counted
  // (a diagram merged from parts may be uneven, a larger d with fewer n: every (d, n) it has, of its settings'
  // dims and sizes, has all four cells, and every d has its smallest n)
  const phase = nativeResult('phase', 7, 9).table;
  const s = phase.settings;
  const pairs = new Set(phase.rows.map((r) => `${r.dim}|${r.n}`));
  assert.equal(phase.rows.length, pairs.size * 2 * 2);
  for (const key of pairs) {
    const [d, n] = key.split('|').map(Number);
    assert.ok(s.dims.includes(d) && s.sizes.includes(n), `d = ${d}, n = ${n} in the settings`);
    assert.equal(phase.rows.filter((r) => r.dim === d && r.n === n).length, 4, `d = ${d}, n = ${n}: 4 cells`);
  }
  for (const d of s.dims) assert.ok(pairs.has(`${d}|${Math.min(...s.sizes)}`), `d = ${d} has n = ${Math.min(...s.sizes)}`);
  for (const r of phaseRows(phase)) {
    assert.equal(r.steps, s.steps, 'one budget for every n');
    assert.ok(r.degenerate >= 0 && r.degenerate <= r.seeds);
    assert.ok(r.reached <= r.seeds - r.degenerate, 'a degenerate run never reaches the limit');
  }
});

test('another class pair has no native result (its panel waits for Run)', () => {
  for (const kind of ['study', 'ladder', 'phase']) assert.equal(nativeResult(kind, 6, 0), null, kind);
  // the study keeps only the pair's own task
  const fake = { study: { made: {}, table: { settings: {}, rows: [{ task: '7v9' }, { task: '6v0' }] } } };
  assert.deepEqual(nativeResult('study', 6, 0, fake).table.rows, [{ task: '6v0' }]);
});
