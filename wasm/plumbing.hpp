// Plumbing shared by the binding files (bindings.cpp, bindings_experiments.cpp, bindings_real.cpp,
// bindings_real_study.cpp), so that each of them holds only its own entry points: the seed check,
// string lists, byte arrays and image sets on the wire, and the run handles' common shape (a run
// owned by JS, created empty because a constructor cannot report errors, then init(); JS must call
// delete()).
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"
#include "convert.hpp"

namespace attnsvm::wire {

// A seed from JS (a double): an integer in 0..2^53-1, the integers a JS number holds exactly.
inline std::uint64_t seedValue(double seed, const char* what = "seed") {
  if (!(seed >= 0) || seed > 9007199254740991.0 || seed != std::floor(seed))
    throw InputError(std::string(what) + " must be an integer in 0..2^53-1");
  return static_cast<std::uint64_t>(seed);
}
inline std::uint64_t seed(const val& o, const char* key) {
  return seedValue(number(o, key, 0), key);
}

// A JS array of strings.
inline val strings(const std::vector<std::string>& list) {
  val a = val::array();
  for (const std::string& s : list) a.call<void>("push", s);
  return a;
}
// {names: [...]}: the result of the entry points that list names.
inline val namesObject(const std::vector<std::string>& list) {
  val o = val::object();
  put(o, "names", strings(list));
  return o;
}

// A fresh Uint8Array copy of `bytes` (never a view on the heap, which a later allocation moves).
inline val u8(const std::vector<std::uint8_t>& bytes) {
  return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

// A set of images from JS, {rows, cols, pixels: Uint8Array, labels}, its sizes checked (`what`
// names it in the messages): the real-images runs, the study's and the ladder's runs.
inline ImageSet imageSet(const val& o, const std::string& what) {
  if (!has(o, "pixels") || !has(o, "labels")) throw InputError(what + " needs pixels and labels");
  ImageSet s;
  s.rows = integer(o, "rows", 0);
  s.cols = integer(o, "cols", 0);
  if (s.rows < 1 || s.cols < 1 || s.rows > 1024 || s.cols > 1024)
    throw InputError(what + ": rows x cols = " + std::to_string(s.rows) + " x " +
                     std::to_string(s.cols) + " is out of range 1..1024");
  s.pixels = emscripten::convertJSArrayToNumberVector<std::uint8_t>(o["pixels"]);
  s.labels = ints(o["labels"]);
  const std::size_t expect = static_cast<std::size_t>(s.labels.size()) * s.rows * s.cols;
  if (s.pixels.size() != expect)
    throw InputError(what + ": " + std::to_string(s.pixels.size()) + " pixel bytes for " +
                     std::to_string(s.labels.size()) + " labels of " + std::to_string(s.rows) +
                     " x " + std::to_string(s.cols) + " images (expected " +
                     std::to_string(expect) + ")");
  return s;
}

// The object a run handle holds once init() succeeded; InputError "<what> is not initialized"
// before.
template <class T>
T& live(const std::unique_ptr<T>& p, const char* what) {
  if (!p) throw InputError(std::string(what) + " is not initialized");
  return *p;
}

// Registers a run handle class with the methods every handle has (constructor, init, step, params,
// iteration); the caller chains its own.
template <class H>
emscripten::class_<H> runHandleClass(const char* name) {
  emscripten::class_<H> c(name);
  c.template constructor<>()
      .function("init", &H::init)
      .function("step", &H::step)
      .function("params", &H::params)
      .function("iteration", &H::iteration);
  return c;
}

}  // namespace attnsvm::wire
