// Private to json_io.cpp and json_fields.cpp: the pieces of the JSON readers' error messages.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// A numeric array packed by parseProblemText (json_io_packed.cpp): its shape (outermost first), its
// values in row-major order and its text. Readers take the values when the shape is the one they
// expect and otherwise read unpacked(j), the DOM the plain parser builds, for its messages.
struct PackedArray {
  std::vector<Index> shape;
  std::vector<double> values;
  std::string_view text;
};
std::optional<PackedArray> packedArray(const json& j);  // nullopt unless j is packed
json unpacked(const json& j);                           // j itself unless packed

}  // namespace attnsvm::cli::detail
