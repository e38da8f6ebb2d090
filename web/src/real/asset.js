// The page side of the real-images asset (scripts/make-real-images-asset.mjs writes it into the built
// site): fetches the files of two classes, only when a real-images scenario opens, checks them, and
// merges them back into file order, the order the core's binarySubset walks. class-K.bin.gz holds
// the first 500 training and test images of class K (seed 0's split); class-K-more.bin.gz the next
// 500, the rest of the pool a seed > 0 draws from, fetched only for such a seed. Every failure is an
// Error whose message names the file and what is wrong (the page shows it and keeps its state).
export const ASSET_DIR = 'data/fashion-mnist';
const MAGIC = 'AFMC';
const VERSION = 1;
const HEADER = 16;

export const CLASS_NAMES = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

// part '' (the first 500 of each split) or '-more' (the next 500)
export const classUrl = (baseUrl, k, part = '') => new URL(`${ASSET_DIR}/class-${k}${part}.bin.gz`, baseUrl).href;

async function inflate(bytes, name) {
  // a server may already have removed the gzip layer (Content-Encoding: gzip for .gz files)
  if (!(bytes[0] === 0x1f && bytes[1] === 0x8b)) return bytes;
  if (typeof DecompressionStream !== 'function') throw new Error(`${name}: this browser cannot inflate gzip (no DecompressionStream)`);
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw new Error(`${name}: corrupt gzip data (${e.message})`, { cause: e });
  }
}

// A response's body, inflated while it downloads when it is gzip (as inflate: a server may have
// removed the gzip layer already). Inflating the whole file after its download (a Blob's stream)
// cost the page a burst of 13-26 ms main-thread tasks; piped from the network, each chunk is
// inflated as it comes, in small tasks spread over the download.
async function streamBytes(body, name) {
  const reader = body.getReader();
  let first;
  try { first = await reader.read(); } catch (e) { throw new Error(`${name} could not be fetched (${e.message})`, { cause: e }); }
  const head = first.value ?? new Uint8Array(0);
  const gz = head[0] === 0x1f && head[1] === 0x8b;
  if (gz && typeof DecompressionStream !== 'function') throw new Error(`${name}: this browser cannot inflate gzip (no DecompressionStream)`);
  let sent = first.done;
  const whole = new ReadableStream({
    async pull(ctrl) {
      if (!sent) { sent = true; if (head.length) ctrl.enqueue(head); return; }
      const { done, value } = await reader.read();
      if (done) ctrl.close(); else ctrl.enqueue(value);
    },
    cancel: (why) => reader.cancel(why),
  }, { highWaterMark: 0 });
  try {
    return new Uint8Array(await new Response(gz ? whole.pipeThrough(new DecompressionStream('gzip')) : whole).arrayBuffer());
  } catch (e) {
    throw new Error(gz ? `${name}: corrupt gzip data (${e.message})` : `${name} could not be fetched (${e.message})`, { cause: e });
  }
}

// One class file -> {k, rows, cols, train: {index, pixels}, test: {index, pixels}}.
export function parseClassFile(bytes, name, expectClass) {
  if (bytes.length < HEADER) throw new Error(`${name}: truncated at byte offset ${bytes.length} (the header has ${HEADER} bytes)`);
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (magic !== MAGIC) throw new Error(`${name}: not a real-images asset (magic "${magic}" at byte offset 0, expected "${MAGIC}")`);
  if (bytes[4] !== VERSION) throw new Error(`${name}: version ${bytes[4]} at byte offset 4 (this page reads version ${VERSION})`);
  const k = bytes[5], rows = bytes[6], cols = bytes[7];
  if (expectClass !== undefined && k !== expectClass) throw new Error(`${name}: holds class ${k} at byte offset 5, expected ${expectClass}`);
  if (!rows || !cols) throw new Error(`${name}: image size ${rows} x ${cols} at byte offset 6`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nTrain = dv.getUint32(8, true), nTest = dv.getUint32(12, true);
  const px = rows * cols;
  const need = HEADER + 4 * (nTrain + nTest) + px * (nTrain + nTest);
  if (bytes.length < need) throw new Error(`${name}: truncated at byte offset ${bytes.length} (${nTrain} + ${nTest} images of ${rows} x ${cols} need ${need} bytes)`);
  const indices = (from, count) => Array.from({ length: count }, (_, j) => dv.getUint32(from + 4 * j, true));
  const trainIndex = indices(HEADER, nTrain), testIndex = indices(HEADER + 4 * nTrain, nTest);
  const p0 = HEADER + 4 * (nTrain + nTest);
  return {
    k, rows, cols,
    train: { index: trainIndex, pixels: bytes.subarray(p0, p0 + px * nTrain) },
    test: { index: testIndex, pixels: bytes.subarray(p0 + px * nTrain, p0 + px * (nTrain + nTest)) },
  };
}

// The images of one split in the parsed files `parts` (of two classes) merged by their index in the
// original file: each file lists its images in file order, so a merge of the sorted lists (one copy
// of each run of consecutive images from one file; sorting objects per image cost 15-30 ms of the
// page's main thread, a copy per image 3-7 ms).
function merge(parts, split, px) {
  const lists = parts.map((c) => c[split].index);
  const sorted = lists.every((l) => l.every((v, j) => j === 0 || l[j - 1] < v));
  const n = lists.reduce((a, l) => a + l.length, 0);
  const pixels = new Uint8Array(n * px);
  const labels = new Int32Array(n);
  const at = lists.map(() => 0);
  const order = sorted ? null : parts.flatMap((c, q) => lists[q].map((idx, j) => ({ idx, q, j }))).sort((x, y) => x.idx - y.idx);
  for (let i = 0; i < n;) {
    let q, j, len = 1;
    if (order) ({ q, j } = order[i]);
    else {
      q = -1;
      for (let r = 0; r < lists.length; r++) if (at[r] < lists[r].length && (q < 0 || lists[r][at[r]] < lists[q][at[q]])) q = r;
      // the run of file q's images that come before every other file's next one: one copy for all
      let next = Infinity;
      for (let r = 0; r < lists.length; r++) if (r !== q && at[r] < lists[r].length) next = Math.min(next, lists[r][at[r]]);
      j = at[q];
      while (j + len < lists[q].length && lists[q][j + len] < next) len++;
      at[q] += len;
    }
    pixels.set(parts[q][split].pixels.subarray(j * px, (j + len) * px), i * px);
    labels.fill(parts[q].k, i, i + len);
    i += len;
  }
  return { rows: parts[0].rows, cols: parts[0].cols, pixels, labels };
}

const cache = new Map(); // url -> Promise<parsed class file>

async function loadClass(baseUrl, k, part, fetchImpl) {
  const url = classUrl(baseUrl, k, part);
  if (!cache.has(url)) {
    const p = (async () => {
      const name = `${ASSET_DIR}/class-${k}${part}.bin.gz`;
      let res;
      try { res = await fetchImpl(url); } catch (e) { throw new Error(`${name} could not be fetched (${e.message})`, { cause: e }); }
      if (!res.ok) {
        throw new Error(`${name} is missing from this site (HTTP ${res.status}): the site build writes it from Debian's ` +
          'dataset-fashion-mnist (apt-get install dataset-fashion-mnist, then npm run build)');
      }
      return parseClassFile(res.body ? await streamBytes(res.body, name) : await inflate(new Uint8Array(await res.arrayBuffer()), name), name, k);
    })();
    cache.set(url, p);
    p.catch(() => cache.delete(url)); // a failure is retried on the next open
  }
  return cache.get(url);
}

// {train, test, perClass} image sets of the classes A and B (the request of a real-images run);
// pool: also the rest of the pool of the seeded split (seeds > 0).
export async function loadPair(baseUrl, classA, classB, { fetchImpl = (u) => fetch(u), pool = false } = {}) {
  for (const c of [classA, classB]) if (!(Number.isInteger(c) && c >= 0 && c <= 9)) throw new Error(`class ${c} is out of range 0..9`);
  if (classA === classB) throw new Error(`the two classes must differ (both are ${classA}, ${CLASS_NAMES[classA]})`);
  const partNames = pool ? ['', '-more'] : [''];
  const parts = await Promise.all([classA, classB].flatMap((c) => partNames.map((part) => loadClass(baseUrl, c, part, fetchImpl))));
  const { rows, cols } = parts[0];
  const odd = parts.find((p) => p.rows !== rows || p.cols !== cols);
  if (odd) throw new Error(`the class files have different image sizes (${rows} x ${cols} and ${odd.rows} x ${odd.cols})`);
  const count = (c, split) => parts.filter((p) => p.k === c).reduce((n, p) => n + p[split].index.length, 0);
  const perClass = (split) => Math.min(count(classA, split), count(classB, split));
  return { train: merge(parts, 'train', rows * cols), test: merge(parts, 'test', rows * cols), perClass: { train: perClass('train'), test: perClass('test') } };
}

// A run's split sizes against a pair's images (loadPair's perClass): nTrain and nTest images, half of
// each class, must be there.
export function checkSplitSizes(perClass, nTrain, nTest) {
  for (const [split, n] of [['train', nTrain], ['test', nTest]]) {
    if (n / 2 > perClass[split]) throw new Error(`${split}: ${n} images need ${n / 2} per class; the site's asset holds ${perClass[split]} per class`);
  }
}
