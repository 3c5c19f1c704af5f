// The colour modes by name (the CLI's words, the legend's titles): what a lesson, a setting or
// --color names. No GL here: the command line checks these names without the window.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/color/colorizer.hpp"

namespace threadmap {

std::string_view color_mode_name(ColorMode mode);  // the CLI's word: "block", "thread-x", …
std::optional<ColorMode> parse_color_mode(std::string_view name);
const std::vector<ColorMode>& all_color_modes();
// "block, thread-x, … or coverage" (with `last` "or"), or joined by `separator`: help and errors.
std::string color_mode_names(const char* separator = ", ", const char* last = " or ");
std::string color_mode_title(ColorMode mode);  // "blockIdx", "threadIdx.x", …

}  // namespace threadmap
