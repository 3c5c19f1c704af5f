// Colour-mode names; see color_mode.hpp.
#include "viz/color/color_mode.hpp"

#include <array>

#include "kernels/core/join_names.hpp"

namespace threadmap {

namespace {

struct ModeEntry {
    ColorMode mode;
    std::string_view name;
    const char* title;
};

constexpr std::array<ModeEntry, 14> kModes{{
    {ColorMode::Block, "block", "blockIdx"},
    {ColorMode::ThreadX, "thread-x", "threadIdx.x"},
    {ColorMode::ThreadY, "thread-y", "threadIdx.y"},
    {ColorMode::ThreadZ, "thread-z", "threadIdx.z"},
    {ColorMode::Global, "global", "global index, cuda.grid (x fastest)"},
    {ColorMode::Warp, "warp", "warp (32 consecutive thread IDs)"},
    {ColorMode::Lane, "lane", "lane (thread ID % 32)"},
    {ColorMode::Coverage, "coverage", "coverage"},
    {ColorMode::Sm, "sm", "SM of the block (one possible order)"},
    {ColorMode::Wave, "wave", "wave of the block (one possible order)"},
    {ColorMode::Sectors, "sectors", "sectors per request (log scale)"},
    {ColorMode::Banks, "banks", "bank conflict ways (log scale)"},
    {ColorMode::Lanes, "lanes", "active lanes per request"},
    {ColorMode::Findings, "findings", "findings of the kernel model"},
}};

}  // namespace

std::string_view color_mode_name(ColorMode mode) {
    for (const auto& m : kModes)
        if (m.mode == mode) return m.name;
    return "?";
}

std::optional<ColorMode> parse_color_mode(std::string_view name) {
    for (const auto& m : kModes)
        if (m.name == name) return m.mode;
    return std::nullopt;
}

std::string color_mode_names(const char* separator, const char* last) {
    return join_names(all_color_modes(), color_mode_name, separator, last);
}

const std::vector<ColorMode>& all_color_modes() {
    static const std::vector<ColorMode> modes = [] {
        std::vector<ColorMode> v;
        for (const auto& m : kModes) v.push_back(m.mode);
        return v;
    }();
    return modes;
}

std::string color_mode_title(ColorMode mode) {
    for (const auto& m : kModes)
        if (m.mode == mode) return m.title;
    return "?";
}

}  // namespace threadmap
