// Reading pixels back from the current framebuffer and writing PNG files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/outcome.hpp"

namespace threadmap {

struct Image {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba;  // row 0 is the top row
    const uint8_t* pixel(int x, int y) const { return rgba.data() + (size_t(y) * size_t(width) + size_t(x)) * 4; }
};

// The bound framebuffer's pixels (GL_RGBA/GL_UNSIGNED_BYTE), rows flipped to top-first.
Image read_framebuffer(int width, int height);

// Writes a PNG; returns an empty string, or why it failed (e.g. an unwritable folder).
Outcome<void> write_png(const Image& image, const std::string& path);

}  // namespace threadmap
