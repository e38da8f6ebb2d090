// The run controller (web/src/lab/run.js), the one load pipeline of the lab, the embeds and the
// first run computed ahead, with the wasm engine under node: an aborted run's answers are dropped
// (no request after the abort, its engine run cancelled), a new run supersedes the one before, a
// failed phase reaches the caller with its message, and two pages' runs of the same state (the lab's
// and an embed's: each its own client and controller, through the worker's handlers) and the first
// run computed ahead (the engine's methods answering at once) give the same trace, value for value.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { decodeHash } from '../../web/src/lab/state.js';
import { createRunController, RunError, whenCurrent, latest } from '../../web/src/lab/run.js';
import { traceReferences, usableSolution } from '../../web/src/lab/reference-follower.js';

globalThis.self ??= globalThis; // worker.js sets self.onmessage when evaluated
const { handlers, runs } = await import('../../web/src/engine/worker.js');

let engine;
before(async () => { engine = await loadEngine(); });

// A page's engine client (engine-client.js's shape) through the worker's handlers, each request
// and reply structured-cloned as postMessage does; log: [method, ...] in the order asked; hold(method):
// a promise the method's answer waits for (to abort a run while a request is in flight).
function pageClient({ hold = {} } = {}) {
  const log = [];
  const send = async (type, payload, name) => {
    log.push(name);
    const msg = structuredClone({ type, ...payload });
    await null;  // (answered in a later microtask at the earliest, as a worker's reply)
    if (hold[name]) await hold[name];
    return structuredClone(await handlers[type](engine, msg));
  };
  const call = (method) => (...args) => send('call', { method, args }, method);
  return {
    log,
    scenario: call('scenario'), sphere: call('sphere'), validate: call('validate'), scores: call('scores'),
    solve: call('solve'), analyze: call('analyze'),
    startRun: (config, maxIterations) => send('start', { config, maxIterations }, 'startRun'),
    step: (runId, k) => send('step', { runId, k }, 'step'),
    cancel: (runId) => send('cancel', { runId }, 'cancel'),
  };
}

// The engine's own methods answering at once (what first-run.js gives the controller in the worker).
function directClient() {
  const call = (method) => (...args) => engine[method](...structuredClone(args));
  return {
    scenario: call('scenario'), sphere: call('sphere'), validate: call('validate'), scores: call('scores'),
    solve: call('solve'), analyze: call('analyze'),
    startRun: (config, maxIterations) => handlers.start(engine, structuredClone({ config, maxIterations })),
    step: (runId, k) => handlers.step(engine, { runId, k }),
    cancel: (runId) => handlers.cancel(engine, { runId }),
  };
}

const deferred = () => { let resolve; const promise = new Promise((r) => { resolve = r; }); return { promise, resolve }; };
const stateOf = (hash) => decodeHash(hash).state;

test('aborting a run mid-way drops its answer: null to the caller, no request after the abort, its engine run cancelled', async () => {
  // aborted while the scenario is in flight: nothing more is asked
  const gate = deferred();
  const client = pageClient({ hold: { scenario: gate.promise } });
  const runner = createRunController();
  const pending = runner.start(client, stateOf('#s=rank'));
  runner.abort();
  gate.resolve();
  assert.equal(await pending, null);
  assert.deepEqual(client.log, ['scenario']);

  // aborted while its first frame is in flight: the run started for it is cancelled
  const held = deferred();
  const late = pageClient({ hold: { step: held.promise } });
  const before = runs.size;
  const second = runner.start(late, stateOf('#s=rank'));
  while (!late.log.includes('step')) await new Promise((r) => setTimeout(r, 1));
  runner.abort();
  held.resolve();
  assert.equal(await second, null);
  assert.equal(late.log.at(-1), 'cancel');
  assert.equal(runs.size, before, 'the aborted run was left in the worker');
});

test('a new run supersedes the one before: the first start answers null, the second its run', async () => {
  const gate = deferred();
  const slow = pageClient({ hold: { validate: gate.promise } });
  const runner = createRunController();
  const first = runner.start(slow, stateOf('#s=rank'));
  const second = runner.start(pageClient(), stateOf('#s=paths2d'));
  gate.resolve();
  assert.equal(await first, null);
  const run = await second;
  assert.equal(run.cfg.scenario, 'paths2d');
  assert.ok(run.signal && !run.signal.aborted);
  assert.equal(run.trace.iterationNow(), 0);
  await run.references;
  handlers.cancel(engine, { runId: run.runId });
  // whenCurrent: a later answer of the superseded run is not applied
  let applied = 0;
  const next = latest();
  const a = next(run.signal), b = next(run.signal);
  assert.equal(await whenCurrent(a, Promise.resolve(1), () => applied++), false);
  assert.equal(await whenCurrent(b, Promise.resolve(2), () => applied++), true);
  assert.equal(applied, 1);
});

test('a failed phase reaches the caller as a RunError with its phase and the engine\'s message', async () => {
  const runner = createRunController();
  // an unknown scenario (past the link's checks): the engine's message, said for the scenario
  await assert.rejects(runner.start(pageClient(), { ...stateOf(''), scenario: 'nope' }), (e) => {
    assert.ok(e instanceof RunError);
    assert.equal(e.phase, 'scenario');
    assert.match(e.message, /^Scenario "nope": \S/);
    return true;
  });
  // the scenario's own data rejected by the validation: the engine's words, after the run's
  const client = pageClient();
  client.validate = async () => { throw new Error('Z[1] has 3 entries, expected 2'); };
  await assert.rejects(runner.start(client, stateOf('#s=rank')), (e) => e.phase === 'validate'
    && e.message === 'The scenario\'s data cannot be used with these settings: Z[1] has 3 entries, expected 2' && !!e.base?.dataset);
  // a run that does not start: said as such
  const broken = pageClient();
  broken.startRun = async () => { throw new Error('lr must be positive'); };
  await assert.rejects(runner.start(broken, stateOf('#s=rank')), { name: 'RunError', phase: 'start', message: 'Training could not start: lr must be positive' });
  // custom data the engine rejects gives way to the scenario's, said through onDataDropped
  const said = [];
  const bad = encodeURIComponent(JSON.stringify({ X: [[[1, 0], [0, 1]]], Y: [1], v: [1, 0.5] }));
  const run = await runner.start(pageClient(), stateOf(`#s=paths2d&data=${bad}`), { onDataDropped: (t) => said.push(t) });
  assert.equal(run.state.data, null);
  assert.equal(said.length, 1);
  assert.match(said[0], /^The dataset cannot be used: .+\. Showing the scenario's data instead\.$/);
  handlers.cancel(engine, { runId: run.runId });
});

// A page's run played to k and its references put in the trace as the lab and the embed do
// (references.js, figure.js: reference-follower.js traceReferences with the run's trace p).
async function traceOf(client, state, k) {
  const run = await createRunController().start(client, state);
  const refs = await run.references;
  const { refs: ws, head } = traceReferences(refs.refs, refs.headSvm);
  run.trace.setReferences(ws, head, run.cfg.train.traceP);
  if (k) run.trace.ingest(await client.step(run.runId, k));
  await client.cancel(run.runId);
  return { run, refs, trace: run.trace };
}
const plain = (v) => JSON.parse(JSON.stringify(v, (key, x) => (ArrayBuffer.isView(x) ? Array.from(x) : typeof x === 'number' && !Number.isFinite(x) ? String(x) : x)));

for (const hash of ['', '#s=rank&seed=3&lr=0.3', '#s=prompt-global-local', '#s=sphere&gen=sphere&n=5&T=4&d=3&seed=11', '#s=joint-wv']) {
  test(`the lab's, an embed's and the first run's trace are the same, value for value (${hash || 'the default link'})`, async () => {
    const state = stateOf(hash);
    const lab = await traceOf(pageClient(), state, 30);
    const embed = await traceOf(pageClient(), state, 30);
    const ahead = await traceOf(directClient(), state, 30);
    for (const other of [embed, ahead]) {
      assert.deepEqual(plain(other.run.cfg), plain(lab.run.cfg));
      assert.deepEqual(plain(other.trace.series()), plain(lab.trace.series()));
      assert.deepEqual(plain(other.trace.correlations()), plain(lab.trace.correlations()));
      assert.deepEqual(other.refs.selection, lab.refs.selection);
    }
    // something to compare: the references came, and the usable ones are in the trace
    const usable = Object.entries(lab.refs.refs).filter(([, r]) => usableSolution(r)).map(([k]) => k);
    assert.ok(usable.length >= 1, `no usable reference for ${hash}`);
    assert.deepEqual(Object.keys(lab.trace.refs).sort(), usable.sort());
    assert.equal(lab.trace.iterationNow(), 30);
  });
}

test('the usable-solution test: optimal, max_iterations and boundary solves with a W; not infeasible, errors, or none', () => {
  const W = [[1, 0], [0, 1]];
  for (const status of ['optimal', 'max_iterations', 'boundary']) assert.equal(usableSolution({ status, W }), true, status);
  for (const status of ['infeasible', 'error']) assert.equal(usableSolution({ status, W }), false, status);
  assert.equal(usableSolution({ status: 'optimal' }), false);
  assert.equal(usableSolution(null), false);
  const { refs, head } = traceReferences({ fro: { status: 'boundary', W }, lp: { status: 'infeasible', W } }, { status: 'optimal', W: [[2], [3]] });
  assert.deepEqual(refs, { fro: W });
  assert.deepEqual(head, [2, 3]);
});
