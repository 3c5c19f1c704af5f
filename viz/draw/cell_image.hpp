// A small map drawn as one image (a lesson's comparison picture, beside the map): a layout's
// cell colours in an RGBA texture, one texel per cell, sampled nearest so that cells stay
// sharp at any size. The edge bits colorize_layout keeps in alpha are dropped: opaque cells.
#pragma once

#include <cstdint>

#include "viz/color/colors.hpp"
#include "viz/draw/gl_resources.hpp"
#include "viz/layout/map_layout.hpp"

namespace threadmap {

class CellImage {
  public:
    // Colours `layout` from `map` as `color` says (`cost`: colorize_layout's) and uploads it, in
    // the current GL context.
    void paint(const MapLayout& layout, const ThreadMap& map, const ColorContext& color, const uint8_t* cost);
    GLuint texture() const { return texture_.get(); }

  private:
    GlTexture texture_;
};

}  // namespace threadmap
