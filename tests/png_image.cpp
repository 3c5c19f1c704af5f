// PNG loading for tests; see png_image.hpp.
#include "tests/png_image.hpp"

#include <stb_image.h>

#include <fstream>
#include <sstream>

PngImage load_png(const std::string& path) {
    PngImage img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
    if (!data) return {};
    img.rgba.assign(data, data + size_t(img.width) * size_t(img.height) * 4);
    stbi_image_free(data);
    return img;
}

std::string file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
