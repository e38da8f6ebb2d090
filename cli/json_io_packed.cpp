// A problem file's big numeric arrays read at memory speed (see json_io.hpp, parseProblemText).
//
// nlohmann's DOM costs about 1 us per number (a node per number, a vector per row, strtod on a
// copied token): 0.8 s for the 882 000 numbers of an n = 1000 real-images problem. Here the values
// of the problem's array keys at the top level of the object (X, Z, Y, v, alpha, W, V) are scanned
// straight from the text into one block of doubles when they are rectangular nested arrays of
// plain JSON numbers; the rest of the document (and every array that is not such a block) goes to
// nlohmann as before. A packed array is a json binary value (a type JSON text never produces) that
// holds its shape, its values and its own text. The readers (readVector, readMatrix, the dataset's
// X and alpha) take the values when the shape is what they expect, and otherwise parse the kept
// text into the DOM the plain parser would have built and read that: every message (which
// sequence, which token) and every accepted input is the plain path's, and only valid, expected
// input takes the fast one. The doubles are the same: std::from_chars rounds correctly, as do
// nlohmann's strtod and its integer-to-double conversion; "-0" (an integer 0 to nlohmann) is +0.
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_io.hpp"
#include "json_io_internal.hpp"

namespace attnsvm::cli {
namespace detail {

namespace {

// The binary subtype that marks a packed array.
constexpr std::uint64_t kPackedSubtype = 0xA5;
// Written in place of a packed array before the rest goes to nlohmann; the text is refused the
// fast path if it holds this marker itself.
constexpr std::string_view kMarker = "attnsvm-packed-array:";
constexpr int kMaxRank = 3;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Scans nested arrays of numbers from text[pos] (at '['): rectangular, non-empty at every level,
// every leaf a JSON number that from_chars reads in range. Fills shape (outermost first) and values
// (row-major); false for anything else (the plain parser then reads it and reports what is wrong).
class ArrayScanner {
 public:
  explicit ArrayScanner(std::string_view text) : s_(text) {}

  bool scan(std::size_t& pos, std::vector<Index>& shape, std::vector<double>& values) {
    shape_.fill(-1);
    values_.clear();
    rank_ = -1;
    if (!level(pos, 0)) return false;
    shape.assign(shape_.begin(), shape_.begin() + rank_);
    values = std::move(values_);
    return true;
  }

 private:
  void skipSpace(std::size_t& p) const {
    while (p < s_.size() && isSpace(s_[p])) ++p;
  }

  // One array at nesting depth `depth`; its length must equal every earlier one at that depth.
  bool level(std::size_t& p, int depth) {
    if (depth >= kMaxRank) return false;
    ++p;  // '['
    skipSpace(p);
    if (p >= s_.size() || s_[p] == ']') return false;  // empty: the plain readers say so
    const bool nested = s_[p] == '[';
    if (rank_ < 0 && !nested) rank_ = depth + 1;  // the first leaf fixes the rank
    if (nested != (rank_ < 0 || depth + 1 < rank_)) return false;
    Index count = 0;
    for (;;) {
      if (nested) {
        if (p >= s_.size() || s_[p] != '[' || !level(p, depth + 1)) return false;
      } else if (!number(p)) {
        return false;
      }
      ++count;
      skipSpace(p);
      if (p >= s_.size()) return false;
      if (s_[p] == ']') break;
      if (s_[p] != ',') return false;
      ++p;
      skipSpace(p);
    }
    ++p;  // ']'
    if (shape_[depth] < 0) {
      shape_[depth] = count;
    } else if (shape_[depth] != count) {
      return false;
    }
    return true;
  }

  // A JSON number (RFC 8259 grammar, checked here: from_chars accepts more) read by from_chars.
  bool number(std::size_t& p) {
    const std::size_t begin = p;
    bool integral = true;
    if (p < s_.size() && s_[p] == '-') ++p;
    if (p >= s_.size()) return false;
    if (s_[p] == '0') {
      ++p;
    } else if (s_[p] >= '1' && s_[p] <= '9') {
      while (p < s_.size() && s_[p] >= '0' && s_[p] <= '9') ++p;
    } else {
      return false;
    }
    if (p < s_.size() && s_[p] == '.') {
      integral = false;
      ++p;
      const std::size_t digits = p;
      while (p < s_.size() && s_[p] >= '0' && s_[p] <= '9') ++p;
      if (p == digits) return false;
    }
    if (p < s_.size() && (s_[p] == 'e' || s_[p] == 'E')) {
      integral = false;
      ++p;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      const std::size_t digits = p;
      while (p < s_.size() && s_[p] >= '0' && s_[p] <= '9') ++p;
      if (p == digits) return false;
    }
    double x = 0;
    const auto [end, ec] = std::from_chars(s_.data() + begin, s_.data() + p, x);
    // Out of range (1e400, 1e-400): the plain path decides what it is.
    if (ec != std::errc() || end != s_.data() + p) return false;
    if (integral && x == 0) x = 0;  // nlohmann reads "-0" as the integer 0
    values_.push_back(x);
    return true;
  }

  std::string_view s_;
  std::array<Index, kMaxRank> shape_{};  // -1 until the first array at that depth ends
  std::vector<double> values_;
  int rank_ = -1;
};

// Skips one JSON string from text[p] (at '"'); false when it does not end.
bool skipString(std::string_view s, std::size_t& p) {
  for (++p; p < s.size(); ++p) {
    if (s[p] == '\\') {
      ++p;
    } else if (s[p] == '"') {
      ++p;
      return true;
    }
  }
  return false;
}

// Skips one JSON value of any kind up to the ',' or '}' after it (not checked: nlohmann parses it
// afterwards); false when the text ends inside it.
bool skipValue(std::string_view s, std::size_t& p) {
  int depth = 0;
  while (p < s.size()) {
    const char c = s[p];
    if (c == '"') {
      if (!skipString(s, p)) return false;
      continue;
    }
    if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (depth == 0) return true;  // the enclosing object's end
      --depth;
    } else if (c == ',' && depth == 0) {
      return true;
    }
    ++p;
  }
  return false;
}

std::vector<std::uint8_t> packBytes(const std::vector<Index>& shape,
                                    const std::vector<double>& values, std::string_view text) {
  const std::uint64_t rank = shape.size();
  std::vector<std::uint8_t> bytes(8 * (1 + rank + values.size()) + text.size());
  std::uint8_t* out = bytes.data();
  std::memcpy(out, &rank, 8);
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int64_t n = shape[k];
    std::memcpy(out + 8 * (1 + k), &n, 8);
  }
  std::memcpy(out + 8 * (1 + rank), values.data(), 8 * values.size());
  std::memcpy(out + 8 * (1 + rank + values.size()), text.data(), text.size());
  return bytes;
}

}  // namespace

std::optional<PackedArray> packedArray(const json& j) {
  if (!j.is_binary()) return std::nullopt;
  const json::binary_t& b = j.get_binary();
  if (!b.has_subtype() || b.subtype() != kPackedSubtype) return std::nullopt;
  PackedArray a;
  std::uint64_t rank = 0;
  std::memcpy(&rank, b.data(), 8);
  std::size_t count = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    std::int64_t n = 0;
    std::memcpy(&n, b.data() + 8 * (1 + k), 8);
    a.shape.push_back(n);
    count *= static_cast<std::size_t>(n);
  }
  a.values.resize(count);
  std::memcpy(a.values.data(), b.data() + 8 * (1 + rank), 8 * count);
  const std::size_t textBegin = 8 * (1 + rank + count);
  a.text =
      std::string_view(reinterpret_cast<const char*>(b.data()) + textBegin, b.size() - textBegin);
  return a;
}

json unpacked(const json& j) {
  const auto a = packedArray(j);
  return a ? json::parse(a->text) : j;
}

}  // namespace detail

namespace {

bool isProblemArrayKey(std::string_view key) {
  for (const char* name : {"X", "Z", "Y", "v", "alpha", "W", "V"})
    if (key == name) return true;
  return false;
}

struct Packed {
  std::size_t begin, end;  // the array's span in the text
  std::vector<Index> shape;
  std::vector<double> values;
};

// The top-level problem arrays that scan as numeric blocks; empty when the text is not an object
// of the expected layout (the plain parser then reads everything and reports what is wrong).
std::vector<Packed> findPackedArrays(std::string_view s) {
  std::vector<Packed> found;
  if (s.find(detail::kMarker) != std::string_view::npos) return {};
  std::size_t p = 0;
  auto space = [&] {
    while (p < s.size() && detail::isSpace(s[p])) ++p;
  };
  space();
  if (p >= s.size() || s[p] != '{') return {};
  ++p;
  detail::ArrayScanner scanner(s);
  for (;;) {
    space();
    if (p >= s.size() || s[p] != '"') return found;
    const std::size_t keyBegin = p + 1;
    if (!detail::skipString(s, p)) return found;
    const std::string_view key = s.substr(keyBegin, p - 1 - keyBegin);
    space();
    if (p >= s.size() || s[p] != ':') return found;
    ++p;
    space();
    if (p < s.size() && s[p] == '[' && isProblemArrayKey(key)) {
      Packed a;
      a.begin = p;
      std::size_t q = p;
      if (scanner.scan(q, a.shape, a.values)) {
        a.end = p = q;
        found.push_back(std::move(a));
      } else if (!detail::skipValue(s, p)) {
        return found;
      }
    } else if (!detail::skipValue(s, p)) {
      return found;
    }
    space();
    if (p >= s.size() || s[p] != ',') return found;
    ++p;
  }
}

}  // namespace

json parseProblemText(const std::string& text, const std::string& source) {
  const std::vector<Packed> arrays = findPackedArrays(text);
  if (arrays.empty()) return parseJsonText(text, source);
  // The text with every packed array replaced by a marker string, parsed by nlohmann.
  std::string rest;
  std::size_t from = 0;
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    rest.append(text, from, arrays[k].begin - from);
    rest += '"';
    rest += detail::kMarker;
    rest += std::to_string(k);
    rest += '"';
    from = arrays[k].end;
  }
  rest.append(text, from, std::string::npos);
  json j;
  try {
    j = parseJsonText(rest, source);
  } catch (const InputError&) {
    return parseJsonText(text, source);  // throws the message with the original text's positions
  }
  if (!j.is_object()) return j;
  for (auto& [key, value] : j.items()) {
    if (!value.is_string()) continue;
    const std::string& s = value.get_ref<const std::string&>();
    if (s.compare(0, detail::kMarker.size(), detail::kMarker) != 0) continue;
    const std::size_t k = std::stoul(s.substr(detail::kMarker.size()));
    const Packed& a = arrays[k];
    value = json::binary(detail::packBytes(a.shape, a.values,
                                           std::string_view(text).substr(a.begin, a.end - a.begin)),
                         detail::kPackedSubtype);
  }
  return j;
}

json readProblemFile(const std::string& path) {
  return parseProblemText(readTextFile(path),
                          path == "-" ? std::string("standard input") : "'" + path + "'");
}

}  // namespace attnsvm::cli
