// The two themes: dark (the window's default: a dim room, a laptop) and light (figures for
// documents and slides, a projector in a lit room). The cells' palettes are the same in both;
// what changes is what lies around and between them: backgrounds, text, the backing of labels.
#pragma once

#include <optional>
#include <string_view>

#include "viz/color/colors.hpp"

namespace threadmap {

enum class ThemeName { Dark, Light };

struct Theme {
    ThemeName name = ThemeName::Dark;
    bool light = false;
    Rgba8 window;      // around the picture (the window's background, a figure's)
    Rgba8 scene;       // behind the cells (idle threads' cells fade towards it)
    Rgba8 text;        // captions, legends, labels
    Rgba8 faint_text;  // what a ruler counts, notes
    Rgba8 backing;     // behind a label drawn over cells
};

const Theme& theme_of(ThemeName name);
std::optional<ThemeName> parse_theme(std::string_view word);  // "dark", "light"
const char* theme_word(ThemeName name);

}  // namespace threadmap
