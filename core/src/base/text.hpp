// A minimal string builder for error and report messages, used instead of std::ostringstream:
// any use of <sstream> links libc++'s whole locale machinery (num_get, money_get, time_get, ...
// for char and wchar_t, ~110 KB of the WebAssembly module; docs/BENCHMARKS.md, "WebAssembly").
// Output is identical to an ostream with default flags: integers in decimal, doubles as "%g"
// (precision 6), which is what `std::ostream << double` prints.
#pragma once

#include <cstdio>
#include <string>
#include <type_traits>

namespace attnsvm::detail {

class Text {
 public:
  Text& operator<<(const std::string& s) {
    out_ += s;
    return *this;
  }
  Text& operator<<(const char* s) {
    out_ += s;
    return *this;
  }
  Text& operator<<(char c) {
    out_ += c;
    return *this;
  }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char>, int> = 0>
  Text& operator<<(T x) {
    if constexpr (std::is_same_v<T, bool>)
      out_ += x ? '1' : '0';
    else
      out_ += std::to_string(x);
    return *this;
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Text& operator<<(T x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(x));
    out_ += buf;
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

}  // namespace attnsvm::detail
