// attnsvm._core: the C++ side of the Python package (python/attnsvm/ wraps it).
#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() =
      "attnsvm's C++ core and CLI library (use the attnsvm package, not this module, directly)";
  bind_api(m);
  bind_study(m);
}
