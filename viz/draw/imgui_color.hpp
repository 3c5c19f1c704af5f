// Our colours as ImGui's packed ones: with their alpha, or opaque (a legend's swatches and
// text, whatever alpha a palette entry carries).
#pragma once

#include <imgui.h>

#include "viz/color/colors.hpp"

namespace threadmap {

inline ImU32 to_imgui(Rgba8 c) { return IM_COL32(c.r, c.g, c.b, c.a); }
inline ImU32 to_imgui_opaque(Rgba8 c) { return IM_COL32(c.r, c.g, c.b, 255); }

}  // namespace threadmap
