// A small PNG writer (8-bit RGB, zlib from the host side) for the training images.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace arc::sw {

// The whole PNG file for a width x height RGB8 image (rgb: 3 bytes per pixel, rows top down).
std::vector<uint8_t> encode_png_rgb(int width, int height, const std::vector<uint8_t>& rgb);
// Float RGB (3 per pixel), clamped to [0, 1] and rounded to 8 bits, written as a PNG file.
void write_png(const std::string& path, int width, int height, const std::vector<float>& rgb);

}  // namespace arc::sw
