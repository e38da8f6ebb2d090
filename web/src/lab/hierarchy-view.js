// The hierarchy preset's view (issue 40, SPEC 5.3 "Two layers"; markup: hierarchy-layout.js): one
// seed of `attnsvm experiment hierarchy` (sphere data n = 4, T = 5, d = 10; W1, W2 from the seed;
// NGD) run through the experiment API on the experiments' worker pool (experiments/runner.js), the
// same numbers as the CLI's for that seed (tests/wasm/experiment-seq.test.mjs), then walked by the
// lab's player (its top bar's play, step and reset: hierarchy-player.js), snapshot by snapshot:
// per layer its softmax sharpness and corr with its own certified SVM (hierarchy-draw.js), and the
// run's finals at the last snapshot. The run is computed in one go (the engine has no two-layer
// stepper); the player walks its 41 snapshots.
//
// mountHierarchy({ setState(patch) }) -> { show(state, stale(), { autoplay }) -> Promise, hide(),
//   bindPlayer(elements), unbindPlayer(), info() }
import { runExperiment, Cancelled } from '../experiments/runner.js';
import { announce } from '../access/figure-access.js';
import { setText, setDisabled } from './dom-write.js';
import { HIER_ID } from './hierarchy-layout.js';
import { hierarchyNumbers, createHierarchyCharts, snapshotText, HIER_DEFAULT_ITERS, HIER_MIN_ITERS } from './hierarchy-draw.js';
import { createSnapshotPlayer } from './hierarchy-player.js';


const $ = (id) => document.getElementById(id);

// A seed or iteration count typed by the reader: an integer in [lo, hi], else why not.
export function checkInt(text, name, lo, hi) {
  const v = Number(text);
  if (String(text).trim() === '' || !Number.isInteger(v)) return { error: `${name} must be a whole number (got "${text}")` };
  if (v < lo || v > hi) return { error: `${name} must be between ${lo} and ${hi} (got ${v})` };
  return { value: v };
}

export { hierarchyNumbers, HIER_DEFAULT_ITERS, HIER_MIN_ITERS };

export function mountHierarchy({ setState }) {
  let controller = null, numbers = null, key = null, error = null, ms = null;
  const setStatus = (text) => { const el = $('hier-status'); if (el.textContent !== text) el.textContent = text; };
  let charts = null;
  const draw = (m) => { charts ??= createHierarchyCharts((id) => $(`hier-body-${id}`), { captionShown: true }); charts.draw(numbers, m); };
  // The top bar's player while the view is shown (bindPlayer): its buttons walk the snapshots.
  let ui = null, wasPlaying = false;
  const player = createSnapshotPlayer({
    onIndex: (m) => { if (numbers) draw(m); updateUI(); },
    onChange: () => {
      updateUI();
      // a pause or the run's end said once, with where it is (never per snapshot)
      if (wasPlaying && !player.playing && numbers && ui) announce(ui.play, `${player.done ? 'The run ended' : 'Paused'}. ${snapshotText(numbers, player.index)}`);
      wasPlaying = player.playing;
    },
  });

  function updateUI() {
    if (!ui) return;
    const { playing, done } = player;
    setText(ui.ico, playing ? '❚❚' : (done ? '✓' : '▶'));
    setText(ui.lbl, playing ? 'Pause' : (done ? 'Done' : 'Play'));
    setDisabled(ui.play, !numbers || (done && !playing));
    setDisabled(ui.step, !numbers || done || playing);
    setDisabled(ui.reset, !numbers);
    // (the counter's 17 characters: the snapshot's number is in the readout's caption and the announcements)
    setText(ui.iter, numbers ? `k = ${numbers.iteration[player.index]} / ${numbers.iters}` : 'k = — / —');
  }

  // The reader's seed and iterations, checked here (the lab's message line is the token view's).
  for (const [id, field, lo, hi, name] of [['hier-seed', 'seed', 0, 2 ** 31 - 1, 'The seed'], ['hier-iters', 'iterations', HIER_MIN_ITERS, 20000, 'Iterations']]) {
    $(id).addEventListener('change', (e) => {
      const c = checkInt(e.target.value, name, lo, hi);
      if (c.error) { setStatus(`Not applied: ${c.error}.`); return; }
      setState({ [field]: c.value });
    });
  }
  $('hier-scenario').addEventListener('change', (e) => setState({ scenario: e.target.value }));

  // Shows the state's run: computed unless it is the one drawn; stale(): a newer restart took over.
  async function show(state, stale, { autoplay = false } = {}) {
    const seed = state.seed ?? 0, iters = state.iterations ?? HIER_DEFAULT_ITERS;
    $('hier-scenario').value = HIER_ID;
    $('hier-seed').value = String(seed);
    $('hier-iters').value = String(iters);
    if (iters < HIER_MIN_ITERS) { error = `Iterations must be at least ${HIER_MIN_ITERS} (a snapshot every iters / 40 steps); got ${iters}`; setStatus(`${error}.`); return; }
    const k = `${seed}/${iters}`;
    if (k === key && numbers) { draw(player.index); updateUI(); return; }
    controller?.abort();
    player.stop();
    const mine = controller = new AbortController();
    error = null;
    setStatus(`Running seed ${seed}: ${iters} NGD steps, both layers' SVMs certified at 41 snapshots…`);
    try {
      const r = await runExperiment({ name: 'hierarchy', seeds: 1, seedBase: seed, iters, workers: 1, settings: [{ label: '', options: {} }] }, { signal: mine.signal });
      if (mine.signal.aborted || stale()) return;
      numbers = hierarchyNumbers(r.settings[0].result); key = k; ms = r.ms;
      setStatus(`Seed ${numbers.seed}, ${numbers.iters} NGD steps, ${numbers.iteration.length} snapshots: computed in ${(ms / 1000).toFixed(1)} s; play or step walks them (the top bar's player).`);
      player.load(numbers.iteration.length, 0);
      if (autoplay) player.play();
    } catch (e) {
      if (e instanceof Cancelled || mine.signal.aborted) return;
      error = e.message;
      setStatus(`The run failed: ${e.message}`);
    } finally {
      if (controller === mine) controller = null;
    }
  }
  function hide() { controller?.abort(); controller = null; player.stop(); }

  // The top bar's buttons (the lab's playback.js sets their onclick): taken while the view is
  // shown, given back on unbind.
  let saved = null;
  function bindPlayer({ play, step, reset, iter }) {
    if (ui) return;
    ui = { play, step, reset, iter, ico: play.querySelector('.ico'), lbl: play.querySelector('.lbl') };
    saved = { play: play.onclick, step: step.onclick, reset: reset.onclick };
    play.onclick = () => { if (player.playing) player.stop(); else player.play(); };
    step.onclick = () => { player.step(); if (numbers) announce(play, snapshotText(numbers, player.index)); };
    reset.onclick = () => { player.reset(); if (numbers) announce(play, `Reset. ${snapshotText(numbers, player.index)}`); };
    updateUI();
  }
  function unbindPlayer() {
    if (!ui) return;
    player.stop();
    ui.play.onclick = saved.play; ui.step.onclick = saved.step; ui.reset.onclick = saved.reset;
    ui = null; saved = null;
  }
  // (the browser tests read the drawn numbers and the player here)
  const info = () => ({ key, error, running: !!controller, numbers, index: player.index, count: player.count,
    playing: player.playing, done: player.done });
  return { show, hide, info, bindPlayer, unbindPlayer, player };
}
