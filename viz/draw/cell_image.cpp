// A layout as one texture; see cell_image.hpp.
#include "viz/draw/cell_image.hpp"

#include <vector>

namespace threadmap {

void CellImage::paint(const MapLayout& layout, const ThreadMap& map, const ColorContext& color, const uint8_t* cost) {
    std::vector<Rgba8> cells(size_t(layout.width) * layout.height);
    colorize_layout(layout, map, color, cells.data(), cost);
    for (Rgba8& c : cells) c.a = 255;
    if (!texture_) texture_ = make_texture();
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, texture_.get()));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(layout.width), GLsizei(layout.height), 0, GL_RGBA,
                          GL_UNSIGNED_BYTE, cells.data()));
}

}  // namespace threadmap
