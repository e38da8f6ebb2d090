// The play/step loop shared by the lab and the embeds (web/src/lab/player.js), in node with a
// hand-driven requestAnimationFrame and engine: one step in flight at most, frames of a restarted
// run (its AbortSignal aborted) dropped, stop and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPlayer } from '../../web/src/lab/player.js';

// A frame clock: tick() runs the callbacks queued before it.
let queued = [];
globalThis.requestAnimationFrame = (f) => { queued.push(f); return queued.length; };
const tick = () => { const q = queued; queued = []; for (const f of q) f(); };
const flush = () => new Promise((r) => setImmediate(r));

function harness({ canStep = () => true } = {}) {
  const calls = [], frames = [], errors = [];
  let changes = 0, run = new AbortController();
  const pending = [];
  const player = createPlayer({
    canStep,
    step: (k) => { calls.push(k); return new Promise((resolve, reject) => pending.push({ resolve, reject })); },
    onFrame: (f) => frames.push(f),
    onError: (e) => errors.push(e.message),
    onChange: () => { changes++; },
    speed: () => 5,
    signal: () => run.signal,
  });
  // bump(): the run restarted (its signal aborted, a new run's in place: restart.js, run.js)
  return { player, calls, frames, errors, pending, changes: () => changes, bump: () => { run.abort(); run = new AbortController(); } };
}

test('playing steps once a frame with one step in flight, and stops', async () => {
  queued = [];
  const h = harness();
  assert.equal(h.player.play(), true);
  assert.equal(h.player.playing, true);
  assert.equal(h.changes(), 1);
  tick();                       // first tick: a step of `speed` iterations
  assert.deepEqual(h.calls, [5]);
  assert.equal(h.player.inFlight, true);
  tick(); tick();               // the step is still in flight: no second one
  assert.deepEqual(h.calls, [5]);
  h.pending.shift().resolve({ iteration: 5 });
  await flush();
  assert.deepEqual(h.frames, [{ iteration: 5 }]);
  assert.equal(h.player.inFlight, false);
  tick();
  assert.deepEqual(h.calls, [5, 5]);
  h.player.stop();
  assert.equal(h.player.playing, false);
  h.pending.shift().resolve({ iteration: 10 });
  await flush();
  tick();                       // stopped: the loop ends, no further step
  assert.deepEqual(h.calls, [5, 5]);
  assert.equal(queued.length, 0);
});

test('a run that cannot step neither plays nor advances', async () => {
  queued = [];
  const h = harness({ canStep: () => false });
  assert.equal(h.player.play(), false);
  assert.equal(h.player.playing, false);
  await h.player.advance(3);
  assert.deepEqual(h.calls, []);
  assert.equal(queued.length, 0);
});

test('a frame or an error of an aborted run is dropped', async () => {
  queued = [];
  const h = harness();
  h.player.advance(7);
  h.bump();                     // the run restarted while its step was in flight
  h.pending.shift().resolve({ iteration: 7 });
  await flush();
  assert.deepEqual(h.frames, []);
  const h2 = harness();
  h2.player.advance(2);
  h2.pending.shift().reject(new Error('worker died'));
  await flush();
  assert.deepEqual(h2.errors, ['worker died']);
  assert.equal(h2.player.inFlight, false);
  h2.player.advance(2);
  h2.bump();
  h2.pending.shift().reject(new Error('stale'));
  await flush();
  assert.deepEqual(h2.errors, ['worker died']);
});

test('a restarted run steps while the earlier run\'s step is still in flight', async () => {
  queued = [];
  const h = harness();
  h.player.advance(4);
  assert.equal(h.player.inFlight, true);
  h.bump();                     // restart: the old step no longer counts as in flight
  assert.equal(h.player.inFlight, false);
  h.player.advance(4);          // the new run's first step goes out
  assert.deepEqual(h.calls, [4, 4]);
  h.pending.shift().resolve({ iteration: 4, old: true });
  await flush();
  assert.equal(h.player.inFlight, true, 'the old step ending cleared the new one\'s flag');
  h.pending.shift().resolve({ iteration: 4 });
  await flush();
  assert.deepEqual(h.frames, [{ iteration: 4 }]);
  assert.equal(h.player.inFlight, false);
});
