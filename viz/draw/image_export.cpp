// Framebuffer read-back and PNG export; see image_export.hpp.
#include "viz/draw/image_export.hpp"

#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "viz/draw/gl.hpp"

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
    // Encoded in memory, then written and closed with every step checked: stb's own file
    // writer ignores a failed write or close (a full disk would pass for success).
    std::vector<unsigned char> png;
    const auto append = [](void* context, void* data, int size) {
        auto* out = static_cast<std::vector<unsigned char>*>(context);
        out->insert(out->end(), static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
    };
    if (!stbi_write_png_to_func(append, &png, image.width, image.height, 4, image.rgba.data(), image.width * 4))
        return failed("cannot encode " + path + " as PNG");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return failed("cannot write " + path + ": " + std::strerror(errno));
    const bool written = std::fwrite(png.data(), 1, png.size(), f) == png.size() && std::fflush(f) == 0;
    const int saved = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) return failed("cannot write " + path + ": " + std::strerror(saved ? saved : errno));
    return done();
}

}  // namespace threadmap
