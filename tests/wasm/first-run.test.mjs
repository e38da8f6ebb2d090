// The lab's first run computed ahead by its worker (web/src/lab/first-run.js, lab-worker.js) and
// given to the page's equal requests (web/src/engine/first-answers.js, worker-engine.js): a page
// whose requests are answered from it gets the same numbers as a page whose requests are computed
// when they arrive, for the default link, links with other settings, the sphere generator, custom
// data, a bad link, and a page whose requests differ from the speculated ones; the real-images view
// gets nothing speculated. The page's side is simulated here with the run controller's requests
// (run.js, what restart.js and the embeds run), through the worker's own handlers (worker.js), every message and reply structured-cloned as
// postMessage does. (tests/browser/first-run.test.mjs checks the real page.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { decodeHash } from '../../web/src/lab/state.js';
import { SCENARIO_INFO } from '../../web/src/lab/scenarios.js';
import { createRunController } from '../../web/src/lab/run.js';
import { startFirstRun } from '../../web/src/lab/first-run.js';
import { createAnswers, requestKey, offerKey } from '../../web/src/engine/first-answers.js';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

globalThis.self ??= globalThis; // worker.js sets self.onmessage when evaluated
const { handlers, runs } = await import('../../web/src/engine/worker.js');

let engine;
before(async () => { engine = await loadEngine(); });

// The page's first restart (restart.js: the run controller, run.js), request by request, with a
// client that sends each request as the worker front end does; answer(msg): worker-engine.js's answers.
async function pageFirstRun(hash, answer) {
  let nextId = 1;
  const log = [];
  const send = async (type, payload) => {
    const msg = structuredClone({ id: nextId++, type, ...payload });
    let result, error = null;
    try {
      const hit = answer?.(msg);
      result = hit ? hit.result : await handlers[type](engine, msg);
    } catch (e) {
      error = e;
      result = { error: e.message };
    }
    result = structuredClone(result);
    log.push([type, payload.method ?? '', type === 'start' ? typeof result : result]); // (a run id: any)
    if (error) throw error;
    return result;
  };
  const call = (method) => (...args) => send('call', { method, args });
  const client = {
    scenario: call('scenario'), sphere: call('sphere'), validate: call('validate'), scores: call('scores'),
    solve: call('solve'), analyze: call('analyze'),
    startRun: (config, maxIterations) => send('start', { config, maxIterations }),
    step: (runId, k) => send('step', { runId, k }),
    cancel: (runId) => send('cancel', { runId }),
  };
  const { state } = decodeHash(hash);
  if (SCENARIO_INFO[state.scenario].own) return log;
  let run;
  try {
    run = await createRunController().start(client, state);
  } catch {
    return log;
  }
  await run.references;
  const { runId } = run;
  await send('step', { runId, k: 40 });
  await send('reset', { runId });
  await send('step', { runId, k: 0 });
  await send('step', { runId, k: 7 });
  await send('cancel', { runId });
  return log;
}

// The results without what differs between two runs of the same requests: the run's id and timings.
const numbers = (log) => JSON.parse(JSON.stringify(log, (k, v) => {
  if (k === 'runId' || k === 'computeMs' || k === 'seconds') return undefined;
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
  // (joint training: the head SVM's solve, then the attention SVMs' for its answer; one pipeline,
  // so made ahead too)
  ['joint training', '#s=joint-wv'],
];

test('first run ahead, custom data the engine rejects: the same numbers (both drop the data)', async () => {
  const stats = await runCase(`#s=paths2d&data=${encodeURIComponent(UNUSABLE)}`);
  // the scenario, then (its validation failed: the scenario's data, one pipeline) scores, start, step
  // 0 and the references: all made ahead and used
  assert.ok(stats.offered > 4, `offered ${stats.offered}`);
  assert.equal(stats.hits, stats.offered);
});

for (const [name, hash] of CASES) {
  test(`first run ahead, ${name}: the same numbers, answered from the worker`, async () => {
    const stats = await runCase(hash);
    // scenario (+ sphere), validate, scores, start, step 0, and the reference SVMs' solves and the
    // selection's analysis: each made ahead, each used
    const refs = stats.log.filter(([type, method]) => type === 'call' && (method === 'solve' || method === 'analyze')).length;
    assert.ok(name === 'a bad link' || refs >= 2, `the page asked for ${refs} reference requests`);
    assert.equal(stats.offered, 5 + (/gen=sphere/.test(hash) ? 1 : 0) + refs);
    assert.equal(stats.hits, stats.offered);
  });
}

// given: the offer the page has already (the default link's, computed at build time), for the run
// the worker computes ahead
async function runCase(hash, pageHash = hash, given = null) {
  const before = runs.size;
  const fresh = await pageFirstRun(pageHash);
  // (the offer reaches the page in the init reply: a structured clone)
  const worker = structuredClone(await startFirstRun(engine, hash, handlers));
  // (the build's run is the worker's first: the page plays on the worker's, here of another id)
  const offer = given ? withRunId(given, worker.runId) : worker;
  if (given) assert.equal(offerKey(offer), offerKey(worker), 'the given offer is not the worker\'s');
  const answers = createAnswers(offer, (runId) => handlers.cancel(engine, { runId }));
  const ahead = await pageFirstRun(pageHash, (msg) => answers.answer(msg));
  assert.ok(fresh.length >= 7, `the page's first run made ${fresh.length} requests`);
  assert.deepEqual(numbers(ahead), numbers(fresh));
  assert.equal(runs.size, before, 'a run left behind');
  return { ...answers.stats, log: ahead };
}

test('first run ahead: every request of the first run answered from the worker (default link)', async () => {
  const stats = await runCase('');
  // scenario, validate, scores, start, step 0, the Frobenius and nuclear SVMs' solves, the analysis
  assert.equal(stats.offered, 8);
  assert.equal(stats.hits, 8);
});

test('first run ahead: a page whose link changed meanwhile computes its own run (the ahead one is dropped)', async () => {
  const stats = await runCase('#s=rank&seed=3', '#s=rank&seed=3&lr=0.3');
  assert.equal(stats.hits, 3); // the same scenario, validation and scores; another run
  const other = await runCase('#s=multitoken', '#s=rank');
  assert.equal(other.hits, 0);
});

test('first run ahead: nothing for the real-images view', async () => {
  const offer = await startFirstRun(engine, '#s=real-images', handlers);
  assert.deepEqual(offer, { answers: [], runId: null, frameKey: null, after: [] });
});

test('first run ahead: a request on the run started ahead takes its first frame off the offer', async () => {
  const offer = structuredClone(await startFirstRun(engine, '', handlers));
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

// An offer with its run's id replaced (the request keys, the start's result, the first frame's runId).
function withRunId(offer, id) {
  const from = `"runId":${offer.runId}`, to = `"runId":${id}`;
  const answers = offer.answers.map(([key, result]) => [key.replace(from, to),
    result === offer.runId && key.startsWith('{"config"') ? id : result?.runId === offer.runId ? { ...result, runId: id } : result]);
  return { answers, runId: id, frameKey: offer.frameKey.replace(from, to), after: offer.after };
}

// The default link's first run as the site's build computes it (vite.config.js, firstRunAtBuild: the
// module the plugin writes, made by the same process it starts) and the page takes with its code.
async function builtOffer() {
  const root = resolve(import.meta.dirname, '../..');
  const src = execFileSync(process.execPath, [resolve(root, 'scripts/vite-first-run.mjs')], { encoding: 'utf8' });
  return (await import(`data:text/javascript,${encodeURIComponent(src)}`)).default;
}

test('first run at build time: the worker\'s offer for the default link, value for value; the page answered from it gets the same numbers', async () => {
  const built = await builtOffer();
  assert.equal(built.hash, '');
  assert.equal(built.offer.runId, 1, 'the build\'s run is not a fresh worker\'s first');
  const stats = await runCase('', '', built.offer);
  // (with the Frobenius and nuclear SVMs' solves and the analysis)
  assert.deepEqual({ offered: stats.offered, hits: stats.hits }, { offered: 8, hits: 8 });
  // typed arrays, -0 and the other numbers as the worker gives them (its source is checked at build
  // time too: scripts/vite-first-run.mjs offerModule)
  const frame = built.offer.answers.find(([k]) => k === built.offer.frameKey)[1];
  assert.ok(frame.softmax instanceof Float64Array && frame.iteration instanceof Int32Array);
});

test('first run at build time: a page whose link is not the default one does not use it (another run)', async () => {
  const built = await builtOffer();
  const stats = await runCase('', '#s=paths2d&lr=0.3', built.offer);
  assert.equal(stats.hits, 3); // the same scenario, validation and scores; its run started ahead cancelled
});

// The first paint reserves the current-softmax panel's height from each scenario's shape
// (scenarios.js, prepaint.js): it must be the engine's dataset's, or that panel grows at the first
// drawing and moves the panels below it (layout shift).
test('each scenario\'s shape (scenarios.js) is the engine\'s dataset and attention: n sequences of T tokens, the queries', () => {
  const names = engine.scenarioNames();
  for (const [id, info] of Object.entries(SCENARIO_INFO)) {
    if (info.own) { assert.equal(info.shape, undefined, `${id}: a view of its own has no token panels`); continue; }
    assert.ok(names.includes(id), `${id} is an engine scenario`);
    const cfg = engine.scenario(id);
    const X = cfg.dataset.X;
    // (the attention sets the panel's rows: a sequence each for cross, a (sequence, query) each for seq2seq / causal)
    assert.deepEqual({ attention: 'cross', ...info.shape }, { n: X.length, T: X[0].length, attention: cfg.model.attention }, `${id}: shape`);
  }
});
