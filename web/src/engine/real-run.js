// A real-images training run (SPEC section 6) over the module's RealImagesRun (wasm/bindings_real.cpp,
// in the attnsvm-experiments build only): the core does the split, the patch tokens, the training
// and the measurements; this wrapper only turns status objects into thrown AttnsvmErrors and wire
// matrices into arrays. request: {train, test, settings}, where train and test are image sets
// {rows, cols, pixels: Uint8Array, labels: Int32Array} holding (at least) the images of the two
// classes in file order, and settings the RealImagesSettings of real_images.hpp (classA, classB,
// nTrain, nTest, seed, patch, optimizer 'nmd' | 'md' | 'adam', p, lr, iters, nSvm, histogramBins),
// read through the core's field list: a key of settings that is not a field throws, listing the
// fields. Other keys of the request are not passed on (asset.js's loadPair adds perClass).
import { AttnsvmError, fromWireMatrix, toWireImageSet, unwrap } from './convert.js';

const rowList = (rows) => Int32Array.from(rows ?? []);

export class RealImagesRun {
  #handle;

  constructor(M, request) {
    if (typeof M.RealImagesRun !== 'function') {
      throw new AttnsvmError("realImages is only in the attnsvm-experiments build of the module: create the engine with {moduleName: 'attnsvm-experiments'}", 'input');
    }
    if (!request || typeof request !== 'object') throw new AttnsvmError('realImages(request): request must be an object', 'input');
    const handle = new M.RealImagesRun();
    let r;
    try {
      r = unwrap(handle.init({ train: toWireImageSet(request.train, 'realImages: train'), test: toWireImageSet(request.test, 'realImages: test'), settings: request.settings ?? {} }));
    } catch (e) {
      handle.delete();
      throw e;
    }
    this.#handle = handle;
    // the split the core made: sizes, and the test images in their order (the gallery draws them)
    this.info = { nTrain: r.nTrain, nTest: r.nTest, T: r.T, d: r.d, rows: r.rows, cols: r.cols, testLabels: r.testLabels, testPixels: r.testPixels };
  }

  #live() {
    if (!this.#handle) throw new AttnsvmError('RealImagesRun: used after dispose()', 'state');
    return this.#handle;
  }

  get iteration() { return this.#live().iteration(); }
  get disposed() { return this.#handle === null; }
  // k steps; with measure, the measurements after them ({taken, iteration, frame?}).
  step(k = 1, measure = false) {
    if (!Number.isInteger(k) || k < 0) throw new AttnsvmError(`step(k): k = ${k} must be an integer >= 0`, 'input');
    return unwrap(this.#live().step(k, !!measure));
  }
  measure() { return unwrap(this.#live().measure()).frame; }
  params() { const r = unwrap(this.#live().params()); return { W: fromWireMatrix(r.W), v: r.v }; }
  // s_it of the test images `rows` (default all), row-major rows x T.
  testSoftmax(rows) { return unwrap(this.#live().testSoftmax(rowList(rows))).softmax; }
  testSelection() { return unwrap(this.#live().testSelection()).selection; }
  // gamma_it = Y_i v^T x_it (rows x T) and f_i of the test images `rows`.
  testScores(rows) { const r = unwrap(this.#live().testScores(rowList(rows))); return { gamma: r.gamma, output: r.output, T: r.T }; }
  analyze() {
    const r = unwrap(this.#live().analyze());
    return { nSvm: r.nSvm, selection: r.selection, verdict: r.verdict, feasible: r.feasible, status: r.status,
      corr: r.corr, divergence: r.divergence, svm: r.svm ? fromWireMatrix(r.svm) : null };
  }
  dispose() {
    if (!this.#handle) return;
    this.#handle.delete();
    this.#handle = null;
  }
}
