// The iframe embed (embed.html): one figure from the URL hash, sized to the iframe's width.
//
// Messages to the host page (window.parent.postMessage, target origin '*': they carry no secrets):
//   { type: 'attnsvm:resize', id, height }     the figure's height in CSS pixels, on load and on
//                                             every change (the host sets the iframe's height)
//   { type: 'attnsvm:status', id, status, iteration }   status: 'ready' | 'playing' | 'paused' |
//                                             'done' | 'error' (optional to listen to)
// `id` is the hash's id=... (null when absent); a host can also match event.source against each
// iframe's contentWindow. A minimal listener:
//   addEventListener('message', (e) => {
//     if (e.data?.type !== 'attnsvm:resize') return;
//     for (const f of document.querySelectorAll('iframe'))
//       if (f.contentWindow === e.source) f.style.height = `${e.data.height}px`;
//   });
//
// The figure's frame (its size reserved) is built at once; its start (the engine's worker, the run,
// the first drawing) waits until the frame comes near the host page's view, or until the page is
// idle (start-queue.js: one figure at a time across the same-origin frames of a page), so a page
// of many figures does not start them all at load.
//
// Test hook: window.__embed (ready, playing, done, started, iteration, maxIterations, correlations,
// selection, verdict, error, resizeMessages, problems).
//
// A hash the figure does not understand (an unknown key, a value out of range) is its author's
// mistake: the figure runs with the defaults, warns once in the console (each parameter as written,
// its value and what it accepts) and shows a small notice the reader can dismiss.
import './figure.css';
import { createEngineClient } from '../lab/engine-client.js';
import { createFigure } from './figure.js';
import { createWorkerEngine } from '../engine/worker-engine.js';
import { parseEmbedHash, labHash, problemsWarning } from './params.js';
import { noticeText } from './notice.js';
import { onPrint } from '../access/figure-access.js';
import { createStarter } from './start-queue.js';

const root = document.getElementById('figure');
const inFrame = window.parent !== window;
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
let client = null;
let figure = null;
let settings = null;
let resizeMessages = 0;
let lastHeight = -1;
let lastStatus = null;

function post(msg) {
  if (inFrame) window.parent.postMessage({ ...msg, id: settings?.id ?? null }, '*');
}

function postHeight() {
  const h = Math.ceil(root.getBoundingClientRect().height);
  if (h === lastHeight || h === 0) return;
  lastHeight = h;
  if (inFrame) resizeMessages++;
  post({ type: 'attnsvm:resize', height: h });
}

function postStatus(fig) {
  const i = fig.info();
  const status = i.error ? 'error' : i.done ? 'done' : i.playing ? 'playing' : i.ready ? (i.started ? 'paused' : 'ready') : null;
  if (!status || status === lastStatus) return;
  lastStatus = status;
  post({ type: 'attnsvm:status', status, iteration: i.iteration });
}

// Printed on white paper: the light theme while the pictures are made (this hook runs before the
// figure's own, which redraws; after printing the figure redraws again in the reader's theme)
let printedDark = false;
onPrint({
  before() { printedDark = document.documentElement.dataset.theme === 'dark'; if (printedDark) applyTheme('light'); },
  after() { if (printedDark) applyTheme(settings.theme); printedDark = false; },
});

function applyTheme(theme) {
  const dark = theme === 'dark' || (theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  root.classList.toggle('af-dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

function start() {
  figure?.destroy();
  settings = parseEmbedHash(location.hash);
  applyTheme(settings.theme);
  const real = ['real-images', 'hierarchy'].includes(settings.state.scenario);  // its own workers (below)
  if (settings.problems.length) console.warn(problemsWarning(settings.problems, { who: `attnsvm figure ${location.href}` }));
  figure = createFigure(root, {
    client: real ? null : () => (client ??= createEngineClient()),
    state: settings.state,
    panels: settings.panels,
    caption: settings.caption,
    labUrl: new URL(`./index.html${labHash(settings.state)}`, document.baseURI).href,
    autoplay: settings.autoplay && !reducedMotion.matches,
    notice: noticeText(settings.problems),
    page: true,
    onUpdate: postStatus,
    // real images: workers of their own with the experiments module (made only for that scenario)
    realEngine: () => import('../real/real-engine.js')
      .then(({ createRealEngine }) => createRealEngine({ worker: new Worker(new URL('../real/real-worker.js', import.meta.url)) })),
    // the hierarchy: a worker of its own with the experiments module (made only for that scenario)
    experimentsEngine: () => createWorkerEngine({ moduleName: 'attnsvm-experiments' }),
    deferStart: true,
  });
  io.disconnect();
  io.observe(root);
  starter.watch(root);
}
const starter = createStarter(() => figure?.start?.());

// Visible = a quarter of the figure, or 200 px of it (half the frame if the frame is smaller: a host
// that never sets the iframe's height), inside the top-level viewport (an IntersectionObserver in an
// iframe measures against the top page's viewport).
const io = new IntersectionObserver((entries) => {
  for (const e of entries) {
    const shown = e.isIntersecting && (e.intersectionRatio >= 0.25 || e.intersectionRect.height >= Math.min(200, innerHeight / 2));
    figure?.setVisible(shown);
  }
}, { threshold: [0, 0.1, 0.25, 0.5, 1] });

new ResizeObserver(postHeight).observe(root);
reducedMotion.addEventListener?.('change', () => figure?.setAutoplay(settings.autoplay && !reducedMotion.matches));
addEventListener('hashchange', start);

window.__embed = {
  get ready() { return figure?.info().ready ?? false; },
  get resizeMessages() { return resizeMessages; },
  get height() { return lastHeight; },
  get problems() { return settings?.problems ?? []; },
  info: () => figure?.info() ?? null,
  play: () => figure?.play(),
  pause: () => figure?.pause(),
  reset: () => figure?.reset(),
};

start();
