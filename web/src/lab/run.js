// The page's load pipeline, written once (issue 39): a lab state -> the scenario from the engine (with
// the sphere generator's data if asked) -> its configuration, validated -> the optimal tokens' scores
// and the training run with its first frame (k = 0) -> the reference SVMs of that frame's selection.
// Used by the lab (restart.js), the embedded figures (embed/figure.js, both the iframe and the
// element) and the lab's first run computed ahead (first-run.js: in the worker, and at build time for
// the default link), so all three make the same engine requests in the same order and get the same
// trace: the first run's answers serve the page's requests only if they are equal.
//
// Stale answers: a run has an AbortSignal; starting a new run on a controller aborts the previous
// one. Every await of the pipeline goes through one check (answer() below), and the one catch in
// start() turns an aborted run into null: the caller never sees its answers. The later work of a
// run (steps, re-solves) checks the same signal (whenCurrent, latest()).
// No DOM: the engine's worker and node (scripts/vite-first-run.mjs, tests) import it.
import { datasetShapeError } from './state.js';
import { scenarioOptions, sphereArgs, buildConfig, initialWeights, validationKind, effectiveRefs, lpP } from './config.js';
import { currentSelection, defaultSelection, solveReferences } from './reference-follower.js';
import { TraceStore } from './trace.js';

// A failed phase of the pipeline: phase 'scenario' | 'sphere' | 'validate' | 'start', the text
// to show (which phase and the engine's message), and the scenario's data when it came.
export class RunError extends Error {
  constructor(phase, message, base = null) {
    super(message);
    this.name = 'RunError';
    this.phase = phase;
    this.base = base;
  }
}

// p's answer, or an AbortError thrown if the run was aborted meanwhile: every await of a run goes
// through here, so an aborted run's answers stop at the first await after its abort.
async function answer(signal, p) {
  const v = await p;
  signal.throwIfAborted();
  return v;
}

// p's answer passed to apply(answer) while signal is not aborted; dropped (apply not called, the
// answer or error ignored) once it is. -> Promise<boolean: applied>. Errors of a current run reach
// the caller.
export async function whenCurrent(signal, p, apply) {
  try {
    const v = await answer(signal, p);
    apply(v);
    return true;
  } catch (e) {
    if (signal.aborted) return false;
    throw e;
  }
}

// A signal aborted with `parent` or when the next one is made: the latest of a kind of request wins
// (a re-solve for a newer selection supersedes one in flight). latest() -> next(parent) -> signal
export function latest() {
  let ctl = null;
  return function next(parent) {
    ctl?.abort();
    const own = new AbortController();
    ctl = own;
    if (parent?.aborted) own.abort();
    else parent?.addEventListener('abort', () => own.abort(), { once: true });
    return own.signal;
  };
}

// The runs of one page or figure: start() aborts the run before it.
//   createRunController() -> { start(client, state, options) -> Promise<run | null>, begin(), abort(), current }
//   client: the engine client (lab/engine-client.js shape; a client whose methods return values
//   rather than promises works too: first-run.js).
//   options: { references: true (solve the first frame's references: run.references), onDataDropped(text) }
// run (null when a newer start, or abort(), superseded it): { serial, signal, state (the state run:
//   a dropped custom dataset removed), base (the scenario as the engine gave it, data possibly the
//   sphere's), cfg, scores (null when the engine had none), runId, trace (a TraceStore with the initial
//   weights and frame k = 0), references: Promise<{ refs, headSvm, report, selection }> | null }
// A failed phase throws a RunError (its message says which phase and why).
export function createRunController() {
  let ctl = null, serial = 0;
  // a new run's handle: { serial, signal } (the previous run aborted)
  function begin() {
    ctl?.abort();
    ctl = new AbortController();
    return { serial: ++serial, signal: ctl.signal };
  }
  async function start(client, state, options = {}) {
    const handle = begin();
    try {
      return await load(client, state, handle, options);
    } catch (e) {
      if (handle.signal.aborted) return null;  // (the one place an aborted run's answers are dropped)
      throw e;
    }
  }
  return {
    start, begin,
    abort() { ctl?.abort(); },
    get current() { return ctl ? { serial, signal: ctl.signal } : null; },
  };
}

async function load(client, state, { serial, signal }, { references = true, onDataDropped = () => {} }) {
  const dropData = (text) => { onDataDropped(text); state = { ...state, data: null }; };
  if (state.data) {
    const err = datasetShapeError(state.data);
    if (err) dropData(`The dataset cannot be used: ${err}. Showing the scenario's data instead.`);
  }
  const base = await scenarioBase(client, state, signal);
  const cfg = await usableConfig(client, state, base, signal, dropData);
  state = cfg.state;
  const config = cfg.config;
  // the scores and the run's start are asked for together (neither needs the other; the worker
  // answers in order, so the scores are in before the run's first frame or its failure)
  // (asked at once, before the start: an async function runs its body up to its first await)
  const scoresAsked = (async () => client.scores(config.dataset))().then((sc) => sc, () => null);
  const { runId, trace } = await startTraining(client, config, signal);
  const scores = await answer(signal, scoresAsked);
  const run = { serial, signal, state, base, cfg: config, scores, runId, trace, references: null };
  if (references) {
    const selection = firstSelection(run);
    run.references = answer(signal, solveReferences(client, { cfg: config, selection, refList: effectiveRefs(state, config), lpP: lpP(state, config) }))
      .then((out) => ({ ...out, selection: solvedSelection(selection, out, scores) }));
    run.references.catch(() => {});  // (an aborted run's references: nobody waits for them)
  }
  return run;
}

// The scenario from the engine, with the sphere generator's data if the state asks for it.
async function scenarioBase(client, state, signal) {
  let base;
  try {
    base = await answer(signal, client.scenario(state.scenario, scenarioOptions(state)));
  } catch (e) {
    throw signal.aborted ? e : new RunError('scenario', `Scenario "${state.scenario}": ${e.message}`);
  }
  if (state.generator !== 'sphere') return base;
  try {
    return { ...base, dataset: await answer(signal, client.sphere(...sphereArgs(state, base.dataset))) };
  } catch (e) {
    throw signal.aborted ? e : new RunError('sphere', `Sphere generator: ${e.message}`, base);
  }
}

// The state's configuration once the engine accepts its data; custom data it rejects gives way to
// the scenario's (not validated again: the scenario's own data with the same settings is what the
// scenario is); the scenario's own data that does not fit the settings fails the run.
async function usableConfig(client, state, base, signal, dropData) {
  const config = buildConfig(state, base);
  try {
    await answer(signal, client.validate(config.dataset, validationKind(config)));
    return { state, config };
  } catch (e) {
    if (signal.aborted) throw e;
    if (!state.data) throw new RunError('validate', `The scenario's data cannot be used with these settings: ${e.message}`, base);
    dropData(`The dataset cannot be used: ${e.message}. Showing the scenario's data instead.`);
    const without = { ...state, data: null };
    return { state: without, config: buildConfig(without, base) };
  }
}

// The training run and its first frame (k = 0) in a new trace; a run started for an aborted load is
// cancelled.
async function startTraining(client, config, signal) {
  const { dataset, model, train, init, iterations } = config;
  let runId = null;
  try {
    runId = await client.startRun({ dataset, model, train, init }, iterations);
    signal.throwIfAborted();
    const trace = new TraceStore();
    trace.setInitial(initialWeights(config));
    trace.ingest(await answer(signal, client.step(runId, 0)));
    return { runId, trace };
  } catch (e) {
    if (runId !== null && signal.aborted) client.cancel?.(runId);
    throw signal.aborted ? e : new RunError('start', `Training could not start: ${e.message}`);
  }
}

// The selection the references are solved for: the run's own once decided, else the data's or the
// optimal tokens (reference-follower.js).
export const firstSelection = ({ cfg, trace, state, scores }) => currentSelection(cfg, trace, state.selection) ?? defaultSelection(cfg, scores);
// The selection a solve answered for (the engine's default when none was asked).
export const solvedSelection = (selection, out, scores) => selection ?? out.report?.selection ?? scores?.optimal ?? null;
