// The real-images asset of the site (SPEC section 6): a compact subset of Fashion-MNIST for the lab's
// "Real images" scenario, one file per class so that a class pair downloads only its two classes.
// Nothing derived from the data is committed: the site build (vite.config.js, plugin
// realImagesAsset) calls realImagesFiles() and emits the files into dist/data/fashion-mnist/.
// Run alone it writes them into a folder: node scripts/make-real-images-asset.mjs OUTDIR
//
// Source: Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist, or
// $ATTNSVM_FASHION_MNIST), the gzipped IDX files, inflated with node's zlib.
//
// Files class-K.bin.gz and class-K-more.bin.gz (K = 0..9), each the gzip (the page inflates it
// with DecompressionStream) of, little-endian:
//   bytes 0..3   magic "AFMC"          4     version (1)        5  class K
//   6            rows (28)             7     cols (28)
//   8..11        nTrain (u32)          12..15 nTest (u32)
//   16..         nTrain u32: the index of each training image in train-images-idx3-ubyte
//                nTest  u32: the index of each test image in t10k-images-idx3-ubyte
//                nTrain * rows * cols bytes: the training images (row-major pixels), in file order
//                nTest  * rows * cols bytes: the test images, in file order
// The indices let the page merge two classes back into file order, which is what the core's
// binarySubset walks (the first count/2 images of each class in file order, interleaved as in the
// file), so the browser's split equals the native one. class-K.bin.gz holds the first FIRST = 500
// training and 500 test images of class K: all that seed 0 (the first N/2 of each class) needs at
// the page's sizes N_train, N_test <= 1000, about 300 KB. class-K-more.bin.gz holds the images
// 500..999 of each split, the rest of the pool the seeded split draws from (kSplitPool = 1000 in
// core/include/attnsvm/data/real_images.hpp: seed k > 0 takes N/2 of the first max(1000, N) of each
// class), fetched only for a seed > 0; the test file has exactly 1000 images of each class.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { resolve } from 'node:path';

export const FIRST = 500;
export const POOL = 1000; // = kSplitPool of the core
export const ASSET_DIR = 'data/fashion-mnist';
export const MAGIC = 'AFMC';
export const VERSION = 1;
const APT = 'apt-get install dataset-fashion-mnist';

function readIdx(path, expectMagic) {
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: the real-images asset needs Debian's Fashion-MNIST (as root: ${APT}; ` +
      'or set ATTNSVM_FASHION_MNIST to a folder with the four IDX .gz files)');
  }
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try { bytes = gunzipSync(bytes); } catch (e) { throw new Error(`${path}: not a valid gzip file (${e.message})`, { cause: e }); }
  }
  if (bytes.length < 8) throw new Error(`${path}: truncated at byte offset ${bytes.length} (no IDX header)`);
  const magic = bytes.readUInt32BE(0);
  if (magic !== expectMagic) throw new Error(`${path}: wrong magic 0x${magic.toString(16).padStart(8, '0')} at byte offset 0 (expected 0x${expectMagic.toString(16).padStart(8, '0')})`);
  const dims = (magic & 0xff);
  const shape = [];
  for (let k = 0; k < dims; k++) shape.push(bytes.readUInt32BE(4 + 4 * k));
  const offset = 4 + 4 * dims;
  const size = shape.reduce((a, b) => a * b, 1);
  if (bytes.length < offset + size) throw new Error(`${path}: truncated at byte offset ${bytes.length} (expected ${offset + size} bytes)`);
  return { shape, data: bytes.subarray(offset, offset + size) };
}

function readSplit(dir, split) {
  const images = readIdx(resolve(dir, `${split}-images-idx3-ubyte.gz`), 0x803);
  const labels = readIdx(resolve(dir, `${split}-labels-idx1-ubyte.gz`), 0x801);
  if (images.shape[0] !== labels.shape[0]) throw new Error(`${dir}/${split}: ${images.shape[0]} images but ${labels.shape[0]} labels`);
  return { count: images.shape[0], rows: images.shape[1], cols: images.shape[2], pixels: images.data, labels: labels.data };
}

// The first `per` images of class k in file order: their file indices.
function firstOfClass(split, k, per) {
  const out = [];
  for (let i = 0; i < split.count && out.length < per; i++) if (split.labels[i] === k) out.push(i);
  if (out.length < per) throw new Error(`class ${k} has only ${out.length} images in the file (need ${per})`);
  return out;
}

// One file of class k: the images `tr` of the training file and `te` of the test file.
function classFile(train, test, k, tr, te) {
  const { rows, cols } = train;
  const px = rows * cols;
  const buf = Buffer.alloc(16 + 4 * (tr.length + te.length) + px * (tr.length + te.length));
  buf.write(MAGIC, 0, 'latin1');
  buf[4] = VERSION; buf[5] = k; buf[6] = rows; buf[7] = cols;
  buf.writeUInt32LE(tr.length, 8);
  buf.writeUInt32LE(te.length, 12);
  let o = 16;
  for (const i of [...tr, ...te]) { buf.writeUInt32LE(i, o); o += 4; }
  for (const i of tr) { train.pixels.copy(buf, o, i * px, (i + 1) * px); o += px; }
  for (const i of te) { test.pixels.copy(buf, o, i * px, (i + 1) * px); o += px; }
  return gzipSync(buf, { level: 9 });
}

// { 'data/fashion-mnist/class-0.bin.gz': Buffer, 'data/fashion-mnist/class-0-more.bin.gz': Buffer, ... }
export function realImagesFiles(dir = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist') {
  const train = readSplit(dir, 'train'), test = readSplit(dir, 't10k');
  const files = {};
  for (let k = 0; k < 10; k++) {
    const tr = firstOfClass(train, k, POOL), te = firstOfClass(test, k, POOL);
    files[`${ASSET_DIR}/class-${k}.bin.gz`] = classFile(train, test, k, tr.slice(0, FIRST), te.slice(0, FIRST));
    files[`${ASSET_DIR}/class-${k}-more.bin.gz`] = classFile(train, test, k, tr.slice(FIRST), te.slice(FIRST));
  }
  return files;
}

// A fetch over realImagesFiles' output, as the site serves it (for node: loadPair's fetchImpl).
export function fetchFromFiles(files) {
  return async (url) => {
    const f = files[`${ASSET_DIR}/${url.split('/').pop()}`];
    return f ? { ok: true, status: 200, arrayBuffer: async () => f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength) } : { ok: false, status: 404 };
  };
}

// vite plugin: emits the files into the build (never into the source tree).
export function realImagesAsset() {
  return {
    name: 'attnsvm-real-images-asset',
    apply: 'build',
    generateBundle() {
      for (const [fileName, source] of Object.entries(realImagesFiles())) this.emitFile({ type: 'asset', fileName, source });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = resolve(process.argv[2] ?? 'dist');
  try {
    for (const [name, buf] of Object.entries(realImagesFiles())) {
      const path = resolve(out, name);
      mkdirSync(resolve(path, '..'), { recursive: true });
      writeFileSync(path, buf);
      console.log(`${path}: ${buf.length} bytes`);
    }
  } catch (e) {
    console.error(`make-real-images-asset: ${e.message}`);
    process.exit(1);
  }
}
