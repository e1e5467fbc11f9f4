#include "png.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "error.h"

namespace arc::sw {
namespace {

void put32(std::vector<uint8_t>& o, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) o.push_back(static_cast<uint8_t>(v >> s));
}

void chunk(std::vector<uint8_t>& o, const char* type, const std::vector<uint8_t>& data) {
  put32(o, static_cast<uint32_t>(data.size()));
  const size_t at = o.size();
  o.insert(o.end(), type, type + 4);
  o.insert(o.end(), data.begin(), data.end());
  const uLong crc = crc32(0L, o.data() + at, static_cast<uInt>(o.size() - at));
  put32(o, static_cast<uint32_t>(crc));
}

}  // namespace

std::vector<uint8_t> encode_png_rgb(int width, int height, const std::vector<uint8_t>& rgb) {
  if (width <= 0 || height <= 0) throw arc::Error("png: image size must be positive");
  const size_t row = 3 * static_cast<size_t>(width);
  if (rgb.size() != row * height) throw arc::Error("png: pixel data does not match the size");
  std::vector<uint8_t> raw;  // filter byte 0 (None) before every row
  raw.reserve((row + 1) * height);
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), rgb.begin() + y * row, rgb.begin() + (y + 1) * row);
  }
  uLongf zlen = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> z(zlen);
  if (compress2(z.data(), &zlen, raw.data(), static_cast<uLong>(raw.size()), 6) != Z_OK)
    throw arc::Error("png: zlib compression failed");
  z.resize(zlen);
  std::vector<uint8_t> o = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> ihdr;
  put32(ihdr, static_cast<uint32_t>(width));
  put32(ihdr, static_cast<uint32_t>(height));
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit, truecolour, deflate, filter 0, no interlace
  chunk(o, "IHDR", ihdr);
  chunk(o, "IDAT", z);
  chunk(o, "IEND", {});
  return o;
}

void write_png(const std::string& path, int width, int height, const std::vector<float>& rgb) {
  std::vector<uint8_t> px(rgb.size());
  for (size_t i = 0; i < rgb.size(); ++i) {
    const float v = std::isfinite(rgb[i]) ? std::clamp(rgb[i], 0.0f, 1.0f) : 0.0f;
    px[i] = static_cast<uint8_t>(std::lround(255.0f * v));
  }
  const auto bytes = encode_png_rgb(width, height, px);
  std::ofstream f(path, std::ios::binary);
  if (!f) throw arc::Error("png: cannot write '" + path + "'");
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw arc::Error("png: write failed: '" + path + "'");
}

}  // namespace arc::sw
