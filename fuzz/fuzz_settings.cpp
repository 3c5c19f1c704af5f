// libFuzzer: any settings file gives settings within their ranges, or a reason.
#include <cstddef>
#include <cstdint>
#include <string>

#include "viz/draw/legend.hpp"
#include "app/window_state/settings.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const SettingsText t = parse_settings(std::string(reinterpret_cast<const char*>(data), size));
    const Settings& s = t.settings;
    if (!(s.ui_scale >= Settings::kMinUiScale && s.ui_scale <= Settings::kMaxUiScale)) __builtin_trap();
    if (s.export_scale != 1 && s.export_scale != 2 && s.export_scale != 4) __builtin_trap();
    if (!parse_color_mode(s.color_mode)) __builtin_trap();
    if (!(s.left_width >= 200 && s.left_width <= 1200 && s.right_width >= 200 && s.right_width <= 1200))
        __builtin_trap();
    return 0;
}
