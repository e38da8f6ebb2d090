// The real-images worker's prefetch (imported by real-worker.js before engine/worker.js, so that this
// listener runs before worker.js's onmessage and keeps the message from it): {type: 'realPrefetch',
// asset: {baseUrl, classA, classB, pool}}, posted by the page as it creates the worker, starts fetching
// and inflating the class files (asset.js, whose cache realStart's loadPair then finds) while the
// engine's module still compiles; realStart waits for the engine, and the images came only after it.
// No reply: a failure is forgotten by asset.js's cache and reported by realStart's own fetch.
import { loadPair } from './asset.js';

self.addEventListener('message', (ev) => {
  if (ev.data?.type !== 'realPrefetch') return;
  ev.stopImmediatePropagation();
  const { baseUrl, classA, classB, pool } = ev.data.asset ?? {};
  loadPair(baseUrl, classA, classB, { pool }).catch(() => {});
});
