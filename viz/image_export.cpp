// Framebuffer read-back and PNG export; see image_export.hpp.
#include "image_export.hpp"

#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "gl.hpp"

namespace threadmap {

Image read_framebuffer(int width, int height) {
    Image img;
    img.width = width;
    img.height = height;
    img.rgba.resize(size_t(width) * size_t(height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    GL_CHECK(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data()));
    const size_t row = size_t(width) * 4;
    std::vector<uint8_t> tmp(row);
    for (int y = 0; y < height / 2; ++y) {
        uint8_t* a = img.rgba.data() + size_t(y) * row;
        uint8_t* b = img.rgba.data() + size_t(height - 1 - y) * row;
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
    for (size_t i = 3; i < img.rgba.size(); i += 4) img.rgba[i] = 255;  // a screenshot is opaque
    return img;
}

Outcome<void> write_png(const Image& image, const std::string& path) {
    // Open first so the message can say why (stb only says "failed").
    std::FILE* probe = std::fopen(path.c_str(), "wb");
    if (!probe) return failed("cannot write " + path + ": " + std::strerror(errno));
    std::fclose(probe);
    if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4))
        return failed("cannot write " + path + " (out of space?)");
    return done();
}

}  // namespace threadmap
