// The embind layer: thin wrappers over the core, no maths here. Every entry point catches
// exceptions and returns a status object; the JS wrapper (web/src/engine) turns failures into Errors.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "attnsvm/dataset.hpp"
#include "attnsvm/rng.hpp"

using namespace emscripten;

namespace {

std::string version() { return "attnsvm 0.1.0"; }

}  // namespace

EMSCRIPTEN_BINDINGS(attnsvm) {
  function("version", &version);
}
