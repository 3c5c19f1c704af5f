// Loads a PNG the program wrote, for pixel checks.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

struct PngImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;
    std::array<uint8_t, 3> at(int x, int y) const {
        const uint8_t* p = rgba.data() + (size_t(y) * size_t(width) + size_t(x)) * 4;
        return {p[0], p[1], p[2]};
    }
    bool valid() const { return width > 0 && height > 0; }
};

PngImage load_png(const std::string& path);  // invalid (0×0) when it cannot be read
std::string file_bytes(const std::string& path);
