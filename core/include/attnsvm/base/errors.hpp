// Typed errors of the core. Every message names what is wrong and where (field, sequence, token),
// so the CLI, the wasm bindings and the page can show it to a person unchanged.
#pragma once
#include <stdexcept>
#include <string>

namespace attnsvm {

// Bad input from the caller: wrong sizes, NaN/Inf, out-of-range indices, invalid settings.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A computation that cannot produce a finite answer (e.g. a divergent run, an unbounded problem).
class NumericalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace attnsvm
