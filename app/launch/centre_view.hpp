// The views the centre of the window holds as tabs, and their names as lesson files, session
// files and the command line spell them (one table for all of them).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace threadmap {

enum class CentreView { Map, Timing, Occupancy, Memory, Editor };

inline constexpr std::array<std::pair<CentreView, std::string_view>, 5> kCentreViewNames = {{
    {CentreView::Map, "map"},
    {CentreView::Timing, "timing"},
    {CentreView::Occupancy, "occupancy"},
    {CentreView::Memory, "memory"},
    {CentreView::Editor, "editor"},
}};

inline std::optional<CentreView> centre_view_named(std::string_view name) {
    for (const auto& [view, text] : kCentreViewNames)
        if (text == name) return view;
    return std::nullopt;
}

inline std::string centre_view_name(CentreView view) {
    for (const auto& [v, text] : kCentreViewNames)
        if (v == view) return std::string(text);
    return "map";
}

// "map, timing, occupancy, memory or editor, not 'X'": what a bad tab name is told.
inline std::string centre_view_problem(const std::string& name) {
    return "map, timing, occupancy, memory or editor, not '" + name + "'";
}

}  // namespace threadmap
