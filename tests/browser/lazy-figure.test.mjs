// The embeds' doors (web/src/embed/lazy-figure.js, used by real/figure-lazy.js and
// embed/hierarchy-lazy.js): what the host asks before the figure's code is in reaches the figure
// once it is, a failure is said, a destroyed door creates nothing. No browser needed (the door
// touches no DOM of its own); here because it is the embeds' code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazyFigureApi } from '../../web/src/embed/lazy-figure.js';

// a door whose module arrives when `arrive()` is called; the figure records what it was asked
function door({ startable = false, fail = null } = {}) {
  const calls = [];
  let arrive, reject;
  const module = new Promise((ok, no) => { arrive = ok; reject = no; });
  const figure = (options) => ({
    options,
    start: () => { calls.push('start'); return Promise.resolve('drawn'); },
    play: () => calls.push('play'), pause: () => calls.push('pause'), reset: () => calls.push('reset'),
    setVisible: (v) => calls.push(`visible ${v}`), setAutoplay: (v) => calls.push(`autoplay ${v}`),
    destroy: () => calls.push('destroy'),
    info: () => ({ ready: true, scenario: 'x' }),
  });
  const d = {
    scenario: 'x', startable, errors: [],
    load: () => module,
    create: (m, options) => { calls.push('create'); d.created = m.make(options); return d.created; },
    showError: (text) => d.errors.push(text),
  };
  return { d, calls, arrive: () => arrive({ make: figure }), fail: () => reject(new Error(fail ?? 'no script')) };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

test('before its code: busy, and what the host asked is handed to the figure', async () => {
  const { d, calls, arrive } = door();
  const api = lazyFigureApi({}, { panels: ['a', 'b'], autoplay: true }, d);
  assert.equal(api.start, undefined, 'a door that is not startable has no start()');
  const info = api.info();
  assert.deepEqual([info.ready, info.busy, info.scenario, info.panels, info.error], [false, true, 'x', ['a', 'b'], null]);
  api.play(); api.setVisible(true); api.setAutoplay(false);
  assert.deepEqual(calls, []);
  arrive();
  await tick();
  assert.equal(d.created.options.autoplay, false, 'the autoplay the host set last');
  assert.deepEqual(calls, ['create', 'visible true']);
  api.pause(); api.reset();
  assert.deepEqual(calls.slice(2), ['pause', 'reset']);
  assert.deepEqual(api.info(), { ready: true, scenario: 'x' });
});

test('a startable door: start() before the code waits for the figure\'s first drawing; deferStart waits for start()', async () => {
  const deferred = door({ startable: true });
  const api = lazyFigureApi({}, { panels: [], deferStart: true }, deferred.d);
  deferred.arrive();
  await tick();
  assert.deepEqual(deferred.calls, ['create'], 'deferStart: not started by the door');
  assert.equal(await api.start(), 'drawn');
  assert.deepEqual(deferred.calls, ['create', 'start']);

  const early = door({ startable: true });
  const api2 = lazyFigureApi({}, { panels: [], deferStart: true }, early.d);
  const started = api2.start();
  early.arrive();
  await started;
  assert.deepEqual(early.calls, ['create', 'start'], 'started once, when the code came');

  const eager = door({ startable: true });
  lazyFigureApi({}, { panels: [] }, eager.d);
  eager.arrive();
  await tick();
  assert.deepEqual(eager.calls, ['create', 'start'], 'without deferStart the door starts it');
});

test('a failed load is said where the figure would be, and in info()', async () => {
  const { d, fail } = door({ fail: 'attnsvm-figure-real.js could not be loaded' });
  const updates = [];
  const api = lazyFigureApi({}, { panels: [], onUpdate: (a) => updates.push(a) }, d);
  fail();
  await tick();
  const text = 'This figure could not start: attnsvm-figure-real.js could not be loaded';
  assert.deepEqual(d.errors, [text]);
  assert.equal(api.info().error, text);
  assert.deepEqual(updates, [api]);
});

test('destroyed before its code came: no figure is made', async () => {
  const { d, calls, arrive } = door();
  const api = lazyFigureApi({}, { panels: [] }, d);
  api.destroy();
  arrive();
  await tick();
  assert.deepEqual(calls, []);
});
