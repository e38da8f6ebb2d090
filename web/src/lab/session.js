// The lab's session: the state (state.js, kept in the URL hash) and what a change of it affects,
// and the current run's objects (config, trace, references), which the lab's modules read through
// this one object; each field has one writer (named beside it).
import { decodeHash, encodeHash, updateState } from './state.js';
import { TraceStore } from './trace.js';
import { lpP, effectiveRefs } from './config.js';

const linkMessage = (errors) => (errors.length ? `The link has problems (defaults used instead):\n• ${errors.join('\n• ')}` : null);
// What a change affects: the player speed (nothing), the reference SVMs (re-solve), or the run.
const REF_FIELDS = new Set(['refs', 'svmP', 'selection']);
// (before a run: no engine run, a signal never aborted)
const NO_RUN = Object.freeze({ serial: 0, signal: new AbortController().signal, id: null });

// createSession({ setMessage(key, text), syncControls(), refreshReferences(), restart() }) -> the
// session (the effects are called on changes only, so they may be bound after the session is made).
const PATH_VIEW_FIELDS = new Set(['pathView', 'pathR']);

export function createSession({ setMessage, syncControls, refreshReferences, restart }) {
  const defaultHash = encodeHash(decodeHash('').state);
  const decoded = decodeHash(location.hash);
  if (decoded.errors.length) setMessage('link', linkMessage(decoded.errors));

  // One writer per field (everyone reads): [session] this file, [restart] restart.js (from the run
  // controller's answer, run.js), [refs] references.js, [player] playback.js, [drag] drag.js,
  // [boot] app.js. A field's writer is the only module that assigns it.
  const s = {
    state: decoded.state,     // [session] (setState, the hash, dropCustomData: restart.js asks through it)
    client: null,             // [boot] the engine (engine-client.js) once it has started
    run: NO_RUN,              // [restart] the current run: { serial, signal (aborted when a newer run starts), id (the engine's) }
    finished: 0,              // [player] the serial of the run whose last frame came (done() below: the current run's)
    cfg: null,                // [restart] { scenario, dataset, model, train, init, iterations }; null without a run
    baseDataset: null,        // [restart] the scenario's own data (projection basis, "scenario data" button)
    projection: null,         // [restart] the token plane's axes (views.js computeProjection)
    scores: null,             // [restart] { gamma, optimal, ties }
    trace: new TraceStore(),  // [restart] a run's trace (the controller's, with k = 0); its frames are appended by
                              // [player] (ingest) and its references set by [refs] (setReferences), each its own part
    refs: {},                 // [refs] norm -> Solution (current reference selection)
    refSelection: null,       // [refs] the selection the references were solved for
    report: null,             // [refs] analysis of refSelection (verdict, support tokens)
    headSvm: null,            // [refs]
    generalizedRef: null,     // [refs] ReLU heads: the generalized SVM's prediction W_fin + R W_dir (as a reference)
    dragData: null,           // [drag] the dataset with the token being dragged moved

    // (a URL without a hash means the default state: it is left as it is while the state is the
    // default, e.g. on every start from a bare link: the first history.replaceState of a page took
    // 10-16 ms of its start's main thread)
    writeHash() {
      const h = encodeHash(s.state);
      if (h === location.hash || (!location.hash && h === defaultHash)) return;
      history.replaceState(null, '', h);
    },
    setState(patch, { fromUser = true } = {}) {
      const { state: next, errors } = updateState(s.state, patch);
      if (errors.length) setMessage('input', `Not applied: ${errors.join('; ')}.`);
      else if (fromUser) setMessage('input', null);
      const changed = Object.keys(next).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(s.state[k]));
      s.state = next;
      s.writeHash();
      if (!changed.length) return;
      // the path view's own fields (web/src/path: its radius, open or not) neither restart nor sync
      if (changed.every((k) => PATH_VIEW_FIELDS.has(k))) return;
      if (changed.every((k) => k === 'speed')) { syncControls(); return; }
      if (changed.every((k) => k === 'speed' || REF_FIELDS.has(k))) { syncControls(); refreshReferences(); return; }
      restart();
    },
    // The link's or the user's dataset is dropped (the scenario's data is shown instead).
    dropCustomData(text) {
      setMessage('data', text);
      s.state = { ...s.state, data: null };
      s.writeHash();
    },
    // The current run's last frame has come (the player stops at it).
    done: () => s.run.id !== null && s.finished === s.run.serial,

    allRefs: () => (s.generalizedRef ? { ...s.refs, gen: s.generalizedRef } : s.refs),
    effectiveRefs: () => effectiveRefs(s.state, s.cfg),
    lpP: () => lpP(s.state, s.cfg),
    // What the views (views.js, render.js, describe.js) draw from.
    viewContext: () => ({
      cfg: s.cfg, trace: s.trace, refs: s.allRefs(), refSelection: s.refSelection, report: s.report, scores: s.scores,
      headSvm: s.headSvm, projection: s.projection, dataset: s.dragData ?? s.cfg.dataset, refList: s.effectiveRefs(),
      lpP: s.lpP(), followSelection: s.state.selection === 'auto',
    }),
  };

  addEventListener('hashchange', () => {
    const d = decodeHash(location.hash);
    setMessage('link', linkMessage(d.errors));
    if (encodeHash(d.state) === encodeHash(s.state)) return;
    s.state = d.state;
    restart();
  });
  return s;
}
