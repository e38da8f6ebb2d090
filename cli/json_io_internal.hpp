// Private to json_io.cpp and json_fields.cpp: the pieces of the JSON readers' error messages.
#pragma once
#include <string>

#include "attnsvm/base/errors.hpp"
#include "json_io.hpp"

namespace attnsvm::cli::detail {

[[noreturn]] inline void fail(const std::string& message) { throw InputError(message); }

// The value for a message, cut to 40 characters.
inline std::string shortDump(const json& j) {
  std::string s = j.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// "an array", "an object", "a string", "a boolean", "null" or "a number".
inline const char* typeWord(const json& j) {
  switch (j.type()) {
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    default:
      return "a number";
  }
}

}  // namespace attnsvm::cli::detail
