// IDX files of Fashion-MNIST (SPEC section 6): parsing bytes in memory (native and wasm) and,
// natively, reading the gzipped files of Debian's dataset-fashion-mnist through zlib. The wasm
// build has no zlib and no file system: the page fetches the bytes and calls parseIdx-style code
// itself.
#include <cstdlib>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"

#ifndef __EMSCRIPTEN__
#include <zlib.h>

#include <sys/stat.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#endif

namespace attnsvm {

namespace {

constexpr std::uint32_t kImagesMagic = 0x00000803;  // unsigned bytes, 3 dimensions
constexpr std::uint32_t kLabelsMagic = 0x00000801;  // unsigned bytes, 1 dimension

std::string hex(std::uint32_t x) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  for (int k = 7; k >= 0; --k) s += digits[(x >> (4 * k)) & 0xF];
  return s;
}

// Big-endian 32-bit word at `offset`; InputError naming the source and the offset when the bytes
// end.
std::uint32_t word(const std::vector<std::uint8_t>& b, std::size_t offset, const std::string& what,
                   const char* field) {
  if (offset + 4 > b.size())
    throw InputError(what + ": truncated at byte offset " + std::to_string(b.size()) + " (the " +
                     field + " needs bytes " + std::to_string(offset) + ".." +
                     std::to_string(offset + 3) + ")");
  return (std::uint32_t(b[offset]) << 24) | (std::uint32_t(b[offset + 1]) << 16) |
         (std::uint32_t(b[offset + 2]) << 8) | std::uint32_t(b[offset + 3]);
}

void checkMagic(std::uint32_t magic, std::uint32_t expected, const std::string& what,
                const char* kind) {
  if (magic == expected) return;
  throw InputError(what + ": wrong magic " + hex(magic) + " at byte offset 0, expected " +
                   hex(expected) + " (IDX " + kind + " of unsigned bytes)" +
                   (magic >> 16 == 0x1f8b ? "; the bytes are still gzip-compressed" : ""));
}

void checkPayload(const std::vector<std::uint8_t>& b, std::size_t header, std::size_t payload,
                  const std::string& what) {
  if (b.size() < header + payload)
    throw InputError(what + ": truncated at byte offset " + std::to_string(b.size()) +
                     ", the header promises " + std::to_string(payload) +
                     " data bytes from offset " + std::to_string(header) + " (file should be " +
                     std::to_string(header + payload) + " bytes)");
  if (b.size() > header + payload)
    throw InputError(what + ": " + std::to_string(b.size() - header - payload) +
                     " unexpected bytes after the data, from byte offset " +
                     std::to_string(header + payload));
}

}  // namespace

ImageSet parseIdx(const std::vector<std::uint8_t>& imageBytes,
                  const std::vector<std::uint8_t>& labelBytes, const std::string& imagesWhat,
                  const std::string& labelsWhat) {
  checkMagic(word(imageBytes, 0, imagesWhat, "magic number"), kImagesMagic, imagesWhat, "images");
  const std::uint32_t count = word(imageBytes, 4, imagesWhat, "image count");
  const std::uint32_t rows = word(imageBytes, 8, imagesWhat, "row count");
  const std::uint32_t cols = word(imageBytes, 12, imagesWhat, "column count");
  if (rows == 0 || cols == 0 || rows > 4096 || cols > 4096)
    throw InputError(imagesWhat + ": image size " + std::to_string(rows) + " x " +
                     std::to_string(cols) + " (bytes 8..15) is out of range 1..4096");
  const std::size_t pixelsPer = std::size_t(rows) * cols;
  checkPayload(imageBytes, 16, std::size_t(count) * pixelsPer, imagesWhat);

  checkMagic(word(labelBytes, 0, labelsWhat, "magic number"), kLabelsMagic, labelsWhat, "labels");
  const std::uint32_t labelCount = word(labelBytes, 4, labelsWhat, "label count");
  checkPayload(labelBytes, 8, labelCount, labelsWhat);
  if (labelCount != count)
    throw InputError(labelsWhat + " has " + std::to_string(labelCount) +
                     " labels (bytes 4..7) but " + imagesWhat + " has " + std::to_string(count) +
                     " images");

  ImageSet out;
  out.rows = static_cast<int>(rows);
  out.cols = static_cast<int>(cols);
  out.pixels.assign(imageBytes.begin() + 16, imageBytes.end());
  out.labels.resize(count);
  for (std::uint32_t k = 0; k < count; ++k) out.labels[k] = labelBytes[8 + k];
  return out;
}

#ifndef __EMSCRIPTEN__

namespace {

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// The whole file, gunzipped when it starts with the gzip magic (gzread passes plain files through).
std::vector<std::uint8_t> readMaybeGzipped(const std::string& path) {
  if (!exists(path)) throw InputError(path + ": no such file");
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
  std::vector<std::uint8_t> out;
  std::uint8_t buffer[1 << 16];
  for (;;) {
    const int got = gzread(f, buffer, sizeof buffer);
    if (got > 0) {
      out.insert(out.end(), buffer, buffer + got);
      continue;
    }
    if (got == 0) {
      // gzread returns 0 both at a clean end and at a truncated stream (Z_BUF_ERROR); tell them
      // apart.
      int code = Z_OK;
      const char* msg = gzerror(f, &code);
      if (code != Z_OK && code != Z_STREAM_END) {
        const long compressed = static_cast<long>(gzoffset(f));
        const std::string text = msg ? msg : "";
        gzclose(f);
        throw InputError(path + ": corrupt or truncated gzip data at compressed byte offset " +
                         std::to_string(compressed) + " (after " + std::to_string(out.size()) +
                         " decompressed bytes): " + text);
      }
      break;
    }
    int code = Z_OK;
    const char* msg = gzerror(f, &code);
    const std::string text = msg ? msg : "";
    const long compressed = static_cast<long>(gzoffset(f));
    gzclose(f);
    throw InputError(path + ": corrupt gzip data at compressed byte offset " +
                     std::to_string(compressed) + " (after " + std::to_string(out.size()) +
                     " decompressed bytes): " + text);
  }
  gzclose(f);
  return out;
}

}  // namespace

ImageSet readIdxFiles(const std::string& imagesPath, const std::string& labelsPath) {
  const std::vector<std::uint8_t> images = readMaybeGzipped(imagesPath);
  const std::vector<std::uint8_t> labels = readMaybeGzipped(labelsPath);
  return parseIdx(images, labels, imagesPath, labelsPath);
}

ImageSet readFashionMnist(const std::string& split, const std::string& directory) {
  if (split != "train" && split != "t10k")
    throw InputError("Fashion-MNIST split '" + split + "': expected 'train' or 't10k'");
  std::string dir = directory;
  if (dir.empty()) {
    const char* env = std::getenv("ATTNSVM_FASHION_MNIST");
    dir = env && *env ? env : "/usr/share/datasets/fashion-mnist";
  }
  if (!dir.empty() && dir.back() == '/') dir.pop_back();
  for (const char* kind : {"-images-idx3-ubyte.gz", "-labels-idx1-ubyte.gz"}) {
    const std::string path = dir + "/" + split + kind;
    if (!exists(path))
      throw InputError(
          path +
          ": no such file. The Fashion-MNIST data is Debian's package: "
          "apt-get install dataset-fashion-mnist (scripts/ensure-deps.sh installs it); "
          "for another directory set $ATTNSVM_FASHION_MNIST");
  }
  return readIdxFiles(dir + "/" + split + "-images-idx3-ubyte.gz",
                      dir + "/" + split + "-labels-idx1-ubyte.gz");
}

#else

ImageSet readIdxFiles(const std::string& imagesPath, const std::string&) {
  throw InputError(imagesPath +
                   ": the WebAssembly build reads no files (fetch the bytes and use parseIdx)");
}

ImageSet readFashionMnist(const std::string& split, const std::string&) {
  throw InputError("Fashion-MNIST '" + split +
                   "': the WebAssembly build reads no files (fetch the bytes and use parseIdx)");
}

#endif

}  // namespace attnsvm
