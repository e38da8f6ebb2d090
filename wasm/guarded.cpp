// The entry points' guard (see guarded.hpp): any C++ exception becomes a status object
// {ok: false, error, kind}; one copy of the catch clause for all the entry points.
#include "guarded.hpp"

#include <exception>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "cold.hpp"
#include "convert.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm::wire {
  val failure(const std::string& message, const char* kind) {
    val o = val::object();
    put(o, "ok", val(false));
    put(o, "error", val(message));
    put(o, "kind", val(std::string(kind)));
    return o;
  }

  CaughtError caughtError() {
    try {
      throw;  // the exception being handled
    } catch (const InputError& e) {
      return {e.what(), "input"};
    } catch (const NumericalError& e) {
      return {e.what(), "numerical"};
    } catch (const std::exception& e) {
      return {e.what(), "internal"};
    } catch (...) {
      return {"unknown C++ exception", "internal"};
    }
  }

  val guardedCall(val(*body)(void*), void* context) {
    try {
      val out = body(context);
      out.set("ok", true);
      return out;
    } catch (...) {
      const CaughtError e = caughtError();
      return failure(e.message, e.kind);
    }
  }

}  // namespace attnsvm::wire
ATTNSVM_COLD_END
