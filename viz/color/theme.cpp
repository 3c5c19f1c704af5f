// See theme.hpp.
#include "viz/color/theme.hpp"

namespace threadmap {

const Theme& theme_of(ThemeName name) {
    static const Theme dark{
        ThemeName::Dark,  false, {16, 17, 20, 255}, {24, 26, 30, 255}, {230, 230, 230, 255}, {150, 152, 158, 255},
        {16, 18, 22, 215}};
    static const Theme light{
        ThemeName::Light,    true, {246, 246, 244, 255}, {255, 255, 255, 255}, {24, 24, 28, 255}, {100, 102, 108, 255},
        {255, 255, 255, 225}};
    return name == ThemeName::Light ? light : dark;
}

std::optional<ThemeName> parse_theme(std::string_view word) {
    if (word == "dark") return ThemeName::Dark;
    if (word == "light") return ThemeName::Light;
    return std::nullopt;
}

const char* theme_word(ThemeName name) { return name == ThemeName::Light ? "light" : "dark"; }

}  // namespace threadmap
