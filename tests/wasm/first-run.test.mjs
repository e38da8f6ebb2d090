// The lab's first run computed ahead by its worker (web/src/lab/first-run.js, lab-worker.js) and
// given to the page's equal requests (web/src/engine/first-answers.js, worker-engine.js): a page
// whose requests are answered from it gets the same numbers as a page whose requests are computed
// when they arrive, for the default link, links with other settings, the sphere generator, custom
// data, a bad link, and a page whose requests differ from the speculated ones; the real-images view
// gets nothing speculated. The page's side is simulated here with restart.js's order of requests,
// through the worker's own handlers (worker.js), every message and reply structured-cloned as
// postMessage does. (tests/browser/first-run.test.mjs checks the real page.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { decodeHash, datasetShapeError } from '../../web/src/lab/state.js';
import { SCENARIO_INFO } from '../../web/src/lab/scenarios.js';
import { scenarioOptions, sphereArgs, buildConfig, validationKind } from '../../web/src/lab/config.js';
import { startFirstRun } from '../../web/src/lab/first-run.js';
import { createAnswers, requestKey } from '../../web/src/engine/first-answers.js';

globalThis.self ??= globalThis; // worker.js sets self.onmessage when evaluated
const { handlers, runs } = await import('../../web/src/engine/worker.js');

let engine;
before(async () => { engine = await loadEngine(); });

// The page's first restart (restart.js), request by request; answer(msg): worker-engine.js's answers.
async function pageFirstRun(hash, answer) {
  let nextId = 1;
  const log = [];
  const send = async (type, payload) => {
    const msg = structuredClone({ id: nextId++, type, ...payload });
    let result;
    try {
      const hit = answer?.(msg);
      result = hit ? hit.result : await handlers[type](engine, msg);
    } catch (e) {
      result = { error: e.message };
    }
    result = structuredClone(result);
    log.push([type, payload.method ?? '', type === 'start' ? typeof result : result]); // (a run id: any)
    return result;
  };
  let { state } = decodeHash(hash);
  if (SCENARIO_INFO[state.scenario].own) return log;
  if (state.data && datasetShapeError(state.data)) state = { ...state, data: null };
  let base = await send('call', { method: 'scenario', args: [state.scenario, scenarioOptions(state)] });
  if (state.generator === 'sphere') base = { ...base, dataset: await send('call', { method: 'sphere', args: sphereArgs(state, base.dataset) }) };
  let config = buildConfig(state, base);
  const invalid = await send('call', { method: 'validate', args: [config.dataset, validationKind(config)] });
  if (invalid?.error) {
    if (!state.data) return log;
    state = { ...state, data: null };
    config = buildConfig(state, base);
  }
  await send('call', { method: 'scores', args: [config.dataset] });
  const { dataset, model, train, init, iterations } = config;
  const runId = await send('start', { config: { dataset, model, train, init }, maxIterations: iterations });
  await send('step', { runId, k: 0 });
  await send('step', { runId, k: 40 });
  await send('reset', { runId });
  await send('step', { runId, k: 0 });
  await send('step', { runId, k: 7 });
  await send('cancel', { runId });
  return log;
}

// The results without what differs between two runs of the same requests: the run's id and timings.
const numbers = (log) => JSON.parse(JSON.stringify(log, (k, v) => {
  if (k === 'runId' || k === 'computeMs') return undefined;
  if (ArrayBuffer.isView(v)) return { [v.constructor.name]: Array.from(v, (x) => (Object.is(x, -0) ? '-0' : Number.isNaN(x) ? 'NaN' : x)) };
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}));

const CUSTOM = JSON.stringify({ X: [[[1, 0], [0, 1]], [[0.5, 0.5], [-1, 0.2]]], Y: [1, -1], v: [1, 0.5], Z: [[0.3, 1], [1, -0.4]] });
const UNUSABLE = JSON.stringify({ X: [[[1, 0], [0, 1]]], Y: [1], v: [1, 0.5] }); // no Z for a cross-attention scenario
const CASES = [
  ['the default link', ''],
  ['another scenario and settings', '#s=rank&seed=3&lr=0.3'],
  ['a prompt scenario', '#s=prompt-global-local'],
  ['the sphere generator', '#s=sphere&gen=sphere&n=5&T=4&d=3&seed=11'],
  ['custom data', `#s=paths2d&data=${encodeURIComponent(CUSTOM)}`],
  ['a bad link', '#s=nope&lr=abc&what=1'],
];

test('first run ahead, custom data the engine rejects: the same numbers (the page drops the data)', async () => {
  const stats = await runCase(`#s=paths2d&data=${encodeURIComponent(UNUSABLE)}`);
  assert.equal(stats.offered, 1); // the scenario; its validation failed: nothing more made ahead
});

for (const [name, hash] of CASES) {
  test(`first run ahead, ${name}: the same numbers, answered from the worker`, async () => {
    const stats = await runCase(hash);
    // scenario (+ sphere), validate, scores, start, step 0: each made ahead, each used
    assert.equal(stats.offered, 5 + (/gen=sphere/.test(hash) ? 1 : 0));
    assert.equal(stats.hits, stats.offered);
  });
}

async function runCase(hash, pageHash = hash) {
  const before = runs.size;
  const fresh = await pageFirstRun(pageHash);
  // (the offer reaches the page in the init reply: a structured clone)
  const offer = structuredClone(startFirstRun(engine, hash, handlers));
  const answers = createAnswers(offer, (runId) => handlers.cancel(engine, { runId }));
  const ahead = await pageFirstRun(pageHash, (msg) => answers.answer(msg));
  assert.ok(fresh.length >= 7, `the page's first run made ${fresh.length} requests`);
  assert.deepEqual(numbers(ahead), numbers(fresh));
  assert.equal(runs.size, before, 'a run left behind');
  return answers.stats;
}

test('first run ahead: every request of the first run answered from the worker (default link)', async () => {
  const stats = await runCase('');
  // scenario, validate, scores, start, step 0
  assert.equal(stats.offered, 5);
  assert.equal(stats.hits, 5);
});

test('first run ahead: a page whose link changed meanwhile computes its own run (the ahead one is dropped)', async () => {
  const stats = await runCase('#s=rank&seed=3', '#s=rank&seed=3&lr=0.3');
  assert.equal(stats.hits, 3); // the same scenario, validation and scores; another run
  const other = await runCase('#s=multitoken', '#s=rank');
  assert.equal(other.hits, 0);
});

test('first run ahead: nothing for the real-images view', () => {
  const offer = startFirstRun(engine, '#s=real-images', handlers);
  assert.deepEqual(offer, { answers: [], runId: null, frameKey: null });
});

test('first run ahead: a request on the run started ahead takes its first frame off the offer', async () => {
  const offer = structuredClone(startFirstRun(engine, '', handlers));
  const cancelled = [];
  const answers = createAnswers(offer, (runId) => cancelled.push(runId));
  const start = offer.answers.find(([k]) => k.startsWith('{"config"'));
  assert.ok(start, 'the start request on offer');
  assert.deepEqual(answers.answer({ id: 9, type: 'step', runId: offer.runId, k: 3 }), undefined);
  assert.deepEqual(answers.answer({ id: 10, type: 'step', runId: offer.runId, k: 0 }), undefined);
  assert.deepEqual(answers.answer({ id: 11, type: 'start', config: {}, maxIterations: 1 }), undefined);
  assert.deepEqual(cancelled, [offer.runId]);
  assert.equal(answers.stats.hits, 0);
  handlers.cancel(engine, { runId: offer.runId });
});

test('requestKey: equal values, equal keys; any difference, another key', () => {
  const k = requestKey;
  assert.equal(k({ a: 1, b: [2, 3] }), k({ b: [2, 3], a: 1 }));
  assert.equal(k(new Float64Array([1, 2.5])), k(new Float64Array([1, 2.5])));
  assert.notEqual(k(0), k(-0));
  assert.notEqual(k(new Float64Array([1])), k([1]));
  assert.notEqual(k(new Float64Array([1])), k(new Float32Array([1])));
  assert.notEqual(k({ a: undefined }), k({}));
  assert.notEqual(k({ a: null }), k({}));
  assert.notEqual(k(['1']), k([1]));
  assert.notEqual(k(0.1 + 0.2), k(0.3));
  assert.equal(k(NaN), k(NaN));
});
