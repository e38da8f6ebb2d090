// The lab's player (player.js runs the loop; these are the lab's rules): when the run can step,
// what a frame does, and the top bar's play, step, reset and speed controls with the play button's
// state. The session's playback field (finished: the run whose last frame came) is written here only.
import { createPlayer } from './player.js';
import { currentSelection } from './reference-follower.js';
import { runSummary } from './describe.js';
import { setText, setDisabled } from './dom-write.js';
import { announce } from '../access/figure-access.js';

// createPlayback($, { session, setMessage, references (references.js), scheduleRender(),
//   describeFigures(now), restart() }) -> { player, play(), stop(), advance(k), updatePlayerUI() }
export function createPlayback($, { session: s, setMessage, references, scheduleRender, describeFigures, restart }) {
  const player = createPlayer({
    canStep: () => s.run.id !== null && !s.done(),
    step: (k) => s.client.step(s.run.id, k),
    onFrame,
    onError: (e) => { setMessage('engine-run', `Training failed: ${e.message}`); stop(); },
    onChange: () => updatePlayerUI(),
    speed: () => s.state.speed,
    signal: () => s.run.signal,
  });
  const play = () => { player.play(); };
  const stop = () => player.stop();
  const advance = (k) => player.advance(k);

  // One engine frame: into the trace; the references follow the run's selection once it is decided;
  // the generalized SVM is solved once the run pauses or ends; a redraw is queued.
  function onFrame(frame) {
    s.trace.ingest(frame);
    if (frame.done) {
      s.finished = s.run.serial;
      if (frame.stopped && frame.stopReason) setMessage('engine-run', `The run stopped at k = ${s.trace.iterationNow()}: ${frame.stopReason}`);
      stop();
      announce($('btn-play'), runSummary(s.viewContext(), 'The run ended'));
    }
    const sel = currentSelection(s.cfg, s.trace, s.state.selection);
    if (sel) references.follower.follow(sel);
    if (!player.playing) references.refreshGeneralized();
    scheduleRender();
  }

  // Called on every frame (dom-write.js: only what changed is written).
  // The play button's visible label is its name (the icon is hidden from screen readers).
  // (its elements looked up once: the shell's, never replaced)
  let ui = null;
  function updatePlayerUI() {
    ui ??= { b: $('btn-play'), ico: $('btn-play').querySelector('.ico'), lbl: $('btn-play').querySelector('.lbl'), step: $('btn-step'), iter: $('iter-out') };
    const playing = player.playing;
    setText(ui.ico, playing ? '❚❚' : (s.done() ? '✓' : '▶'));
    setText(ui.lbl, playing ? 'Pause' : (s.done() ? 'Done' : 'Play'));
    setDisabled(ui.b, s.run.id === null || (s.done() && !playing));
    setDisabled(ui.step, s.run.id === null || s.done() || playing);
    setText(ui.iter, `k = ${s.trace.iterationNow()} / ${s.cfg?.iterations ?? '—'}`);
  }

  $('btn-play').onclick = () => {
    if (player.playing) {
      stop(); references.refreshGeneralized();
      describeFigures(true);
      announce($('btn-play'), runSummary(s.viewContext(), 'Paused'));
    } else play();
  };
  $('btn-step').onclick = () => advance(s.state.speed);
  $('btn-reset').onclick = () => restart();
  $('ctl-speed').onchange = (e) => s.setState({ speed: Number(e.target.value) });

  return { player, play, stop, advance, updatePlayerUI };
}
