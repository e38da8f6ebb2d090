// The real-images entry points (SPEC section 6), linked only into the attnsvm-experiments module:
// the lab's "Real images" scenario and its embeds load that build on demand, so pages and embeds of
// the other scenarios do not pay for them. Thin wrappers over the core
// (attnsvm/data/real_images.hpp): the page hands over the pixels and labels of the two classes in
// file order, and the core does the split (binarySubset), the tokens (patchDataset) and the
// training, as the native CLI does.
//
// Wire: an image set is {rows, cols, pixels: Uint8Array (count*rows*cols), labels: Int32Array};
// the run's request is {train, test, settings}, settings read through RealImagesSettings' field
// list (real_images.hpp: classA, classB, nTrain, nTest, seed, patch, optimizer, p, lr, iters, nSvm,
// histogramBins; seed: the split's, binarySubset; the page's asset holds each class's pool,
// kSplitPool images, so the split equals the CLI's for every seed); frames and the analysis are
// written through RealImagesFrame's and RealImagesAnalysis' lists, as the CLI writes its runs. A
// key that is not a field is an error listing the fields.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "cold.hpp"
#include "convert.hpp"
#include "guarded.hpp"
#include "plumbing.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    using emscripten::val;
using namespace attnsvm;

namespace {

using wire::guarded;
using wire::put;

// The request's settings (read by `in`, the request's reader), checked.
RealImagesSettings realSettings(wire::Reader& in) {
  RealImagesSettings s;
  in.object("settings", [&](wire::Reader& sub) { visitFields(s, sub); });
  if (!(s.p > 1) || !std::isfinite(s.p))
    throw InputError("settings.p = " + std::to_string(s.p) + " must be > 1");
  if (!(s.lr > 0) || !std::isfinite(s.lr))
    throw InputError("settings.lr must be a positive number");
  if (s.iters < 1 || s.iters > 10000000)
    throw InputError("settings.iters = " + std::to_string(s.iters) +
                     " is out of range 1..10000000");
  if (s.histogramBins < 1 || s.histogramBins > 1000)
    throw InputError("settings.histogramBins is out of range 1..1000");
  return s;
}

val frameObject(const RealImagesFrame& f) { return wire::writeFields(f); }

// Rows `rows` of an n x T matrix, row-major, as one Float64Array (all rows when `rows` is empty).
val rowsOf(const Mat& m, const std::vector<int>& rows) {
  std::vector<double> out;
  const int n = static_cast<int>(m.rows()), T = static_cast<int>(m.cols());
  std::vector<int> pick = rows;
  if (pick.empty())
    for (int i = 0; i < n; ++i) pick.push_back(i);
  out.reserve(pick.size() * T);
  for (int i : pick) {
    if (i < 0 || i >= n)
      throw InputError("image " + std::to_string(i) + " is out of range 0.." +
                       std::to_string(n - 1));
    for (int t = 0; t < T; ++t) out.push_back(m(i, t));
  }
  return wire::f64(out);
}

// A real-images training run owned by JS (plumbing.hpp: created empty, then init(request); JS must
// call delete()).
class RealRunHandle {
 public:
  val init(const val& req) {
    return guarded([&] {
      wire::Reader in(req, "");
      in.accept("train");  // image sets, read below
      in.accept("test");
      const RealImagesSettings s = realSettings(in);
      in.finish();
      const ImageSet trainAll = wire::imageSet(req["train"], "train");
      const ImageSet testAll = wire::imageSet(req["test"], "test");
      ImageSet train = binarySubset(trainAll, s.classA, s.classB, s.nTrain, s.seed);
      ImageSet test = binarySubset(testAll, s.classA, s.classB, s.nTest, s.seed);
      // the tokens of dimension s.dim (SPEC 6.5; the same bits as the CLI's)
      run_ = std::make_unique<RealImagesRun>(
          embedTokens(patchDataset(train, s.classA, s.classB, s.patch), s.dim, s.embedSeed),
          embedTokens(patchDataset(test, s.classA, s.classB, s.patch), s.dim, s.embedSeed), s);
      testImages_ = std::move(test);
      val o = val::object();
      const Dataset& d = run_->train();
      put(o, "nTrain", val(d.n));
      put(o, "nTest", val(run_->test().n));
      put(o, "T", val(d.T));
      put(o, "d", val(d.d));
      put(o, "rows", val(testImages_.rows));
      put(o, "cols", val(testImages_.cols));
      put(o, "testLabels", wire::i32(testImages_.labels));
      put(o, "testPixels", wire::u8(testImages_.pixels));
      return o;
    });
  }

  // k steps; the measurements after them when `measure` (the player's frames).
  val step(int k, bool measure) {
    return guarded([&] {
      RealImagesRun& r = run();
      if (k < 0) throw InputError("step(k): k = " + std::to_string(k) + " must be >= 0");
      const int taken = r.step(k);
      val o = val::object();
      put(o, "taken", val(taken));
      put(o, "iteration", val(r.iteration()));
      put(o, "stopReason", val(r.stopReason()));  // empty while the run goes on
      if (measure) put(o, "frame", frameObject(r.measure()));
      return o;
    });
  }

  val measure() {
    return guarded([&] {
      val o = val::object();
      put(o, "frame", frameObject(run().measure()));
      return o;
    });
  }

  val params() {
    return guarded([&] {
      const Params& p = run().params();
      val o = val::object();
      put(o, "W", wire::matrix(p.W));
      put(o, "v", wire::f64(p.v));
      return o;
    });
  }

  // s_it of the test images `rows` (Int32Array; empty: all), row-major rows x T.
  val testSoftmax(const val& rows) {
    return guarded([&] {
      val o = val::object();
      put(o, "softmax", rowsOf(run().testSoftmax(), wire::ints(rows)));
      put(o, "T", val(run().test().T));
      return o;
    });
  }

  val testSelection() {
    return guarded([&] {
      val o = val::object();
      put(o, "selection", wire::i32(run().testSelection()));
      return o;
    });
  }

  // Token scores gamma_it = Y_i v^T x_it of the test images `rows` with the current head v, and
  // their outputs f_i = v^T X_i^T s_i (the prediction is sign f_i): the selection analysis of one
  // image (SPEC section 4: its optimal patch is argmax_t gamma_it).
  val testScores(const val& rows) {
    return guarded([&] {
      const RealImagesRun& r = run();
      const Dataset& test = r.test();
      const Vec& v = r.params().v;
      const Mat S = r.testSoftmax();
      std::vector<int> pick = wire::ints(rows);
      if (pick.empty())
        for (int i = 0; i < test.n; ++i) pick.push_back(i);
      std::vector<double> gamma, output;
      gamma.reserve(pick.size() * test.T);
      for (int i : pick) {
        if (i < 0 || i >= test.n)
          throw InputError("image " + std::to_string(i) + " is out of range 0.." +
                           std::to_string(test.n - 1));
        const Vec scores = test.tokens(i) * v;  // v^T x_it
        for (int t = 0; t < test.T; ++t) gamma.push_back(test.Y(i) * scores(t));
        output.push_back(S.row(i).dot(scores.transpose()));
      }
      val o = val::object();
      put(o, "gamma", wire::f64(gamma));
      put(o, "output", wire::f64(output));
      put(o, "T", val(test.T));
      return o;
    });
  }

  val analyze() {
    return guarded([&] {
      return wire::writeFields(run().analyze());  // svm only when there is one
    });
  }

  int iteration() const { return run_ ? run_->iteration() : 0; }

 private:
  RealImagesRun& run() const { return wire::live(run_, "real-images run"); }

  std::unique_ptr<RealImagesRun> run_;
  ImageSet testImages_;
};

// The ten class names (index = label).
val realClassNamesW() {
  return guarded([] { return wire::namesObject(fashionClassNames()); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnsvm_real) {
  using namespace emscripten;
  function("realClassNames", &realClassNamesW);
  wire::runHandleClass<RealRunHandle>("RealImagesRun")
      .function("measure", &RealRunHandle::measure)
      .function("testSoftmax", &RealRunHandle::testSoftmax)
      .function("testSelection", &RealRunHandle::testSelection)
      .function("testScores", &RealRunHandle::testScores)
      .function("analyze", &RealRunHandle::analyze);
}
ATTNSVM_COLD_END
