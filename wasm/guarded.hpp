// Error handling shared by the binding files: every entry point runs its body in guarded(), which
// turns any C++ exception into a status object ({ok: false, error, kind}); exceptions never unwind
// into JS (an escaped one leaks its allocation, TOOLCHAIN.md section 3).
#pragma once
#include <emscripten/val.h>

#include <exception>
#include <string>

#include "attnsvm/errors.hpp"

namespace attnsvm::wire {

using emscripten::val;

inline val failure(const std::string& message, const char* kind) {
  val o = val::object();
  o.set("ok", false);
  o.set("error", message);
  o.set("kind", std::string(kind));
  return o;
}

// Runs f() (which returns the result object) and converts any exception into a failure object.
template <class F>
val guarded(F&& f) {
  try {
    val out = f();
    out.set("ok", true);
    return out;
  } catch (const InputError& e) {
    return failure(e.what(), "input");
  } catch (const NumericalError& e) {
    return failure(e.what(), "numerical");
  } catch (const std::exception& e) {
    return failure(e.what(), "internal");
  } catch (...) {
    return failure("unknown C++ exception", "internal");
  }
}

}  // namespace attnsvm::wire
