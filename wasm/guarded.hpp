// Error handling shared by the binding files: every entry point runs its body in guarded(), which
// turns any C++ exception into a status object ({ok: false, error, kind}); exceptions never unwind
// into JS (an escaped one leaks its allocation, TOOLCHAIN.md section 3).
#pragma once
#include <emscripten/val.h>

#include <exception>
#include <memory>
#include <string>
#include <type_traits>

#include "attnsvm/cold.hpp"
#include "attnsvm/errors.hpp"

namespace attnsvm::wire {

using emscripten::val;

// {ok: false, error: message, kind}.
val failure(const std::string& message, const char* kind);

// Runs body(context) (which returns the result object) and converts any exception into a failure
// object. Out of line (convert.cpp): one copy of the catch clauses for all the entry points.
val guardedCall(val (*body)(void*), void* context);

// Runs f() (which returns the result object) through guardedCall.
// The body's thunk is optimized for size (ATTNSVM_COLD_FN): the body is inlined into it, and a
// lambda's conversion to a function pointer would not carry the attribute.
template <class Fn>
struct GuardedBody {
  ATTNSVM_COLD_FN static val call(void* c) { return (*static_cast<Fn*>(c))(); }
};

template <class F>
val guarded(F&& f) {
  return guardedCall(&GuardedBody<std::remove_reference_t<F>>::call,
                     const_cast<void*>(static_cast<const void*>(std::addressof(f))));
}

}  // namespace attnsvm::wire
