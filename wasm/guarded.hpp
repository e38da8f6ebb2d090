// Error handling shared by the binding files: every entry point runs its body in guarded(), which
// turns any C++ exception into a status object ({ok: false, error, kind}); exceptions never unwind
// into JS (an escaped one leaks its allocation, TOOLCHAIN.md section 3).
#pragma once
#include <emscripten/val.h>

#include <exception>
#include <memory>
#include <string>
#include <type_traits>

#include "attnsvm/base/errors.hpp"
#include "cold.hpp"

namespace attnsvm::wire {

using emscripten::val;

// {ok: false, error: message, kind}.
val failure(const std::string& message, const char* kind);

// Only inside a catch block: the message of the exception being handled and its kind, "input"
// (InputError), "numerical" (NumericalError) or "internal" (anything else). The one mapping from
// exception types to kinds, for guardedCall and the bindings' Status entry points.
struct CaughtError {
  std::string message;
  const char* kind;
};
CaughtError caughtError();

// Runs body(context) (which returns the result object) and converts any exception into a failure
// object. Out of line (guarded.cpp): one copy of the catch clause for all the entry points.
val guardedCall(val (*body)(void*), void* context);

// The function-pointer thunk through which an out-of-line guard runs a lambda f: call(&f) is f().
// Optimized for size (ATTNSVM_COLD_FN): the body is inlined into it, and a lambda's own conversion
// to a function pointer would not carry the attribute.
template <class Fn>
struct Thunk {
  ATTNSVM_COLD_FN static auto call(void* c) { return (*static_cast<Fn*>(c))(); }
};
template <class F>
void* thunkContext(F& f) {
  return const_cast<void*>(static_cast<const void*>(std::addressof(f)));
}

// Runs f() (which returns the result object) through guardedCall.
template <class F>
val guarded(F&& f) {
  return guardedCall(&Thunk<std::remove_reference_t<F>>::call, thunkContext(f));
}

}  // namespace attnsvm::wire
