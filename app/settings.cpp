// Settings persistence; see settings.hpp.
#include "settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "legend.hpp"
#include "lessons.hpp"

namespace threadmap {

std::string config_dir() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/threadmap";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.config/threadmap";
}

Settings sanitized(Settings s) {
    s.ui_scale = std::clamp(s.ui_scale, Settings::kMinUiScale, Settings::kMaxUiScale);
    if (s.export_scale != 1 && s.export_scale != 2 && s.export_scale != 4) s.export_scale = 1;
    if (!parse_color_mode(s.color_mode)) s.color_mode = "block";
    s.left_width = std::clamp(s.left_width, 200.0f, 1200.0f);
    s.right_width = std::clamp(s.right_width, 200.0f, 1200.0f);
    if (!find_lesson(s.last_preset)) s.last_preset = "seed-increment";
    if (s.export_dir.empty()) s.export_dir = ".";
    return s;
}

Settings load_settings(std::string& message) {
    Settings s;
    const std::string path = config_dir() + "/settings.json";
    std::ifstream f(path);
    if (!f) return s;
    try {
        const auto j = nlohmann::json::parse(f);
        s.ui_scale = j.value("ui_scale", s.ui_scale);
        s.colorblind_palette = j.value("colorblind_palette", s.colorblind_palette);
        s.color_mode = j.value("color_mode", s.color_mode);
        s.export_scale = j.value("export_scale", s.export_scale);
        s.export_dir = j.value("export_dir", s.export_dir);
        s.left_width = j.value("left_width", s.left_width);
        s.right_width = j.value("right_width", s.right_width);
        s.last_preset = j.value("last_preset", s.last_preset);
    } catch (const nlohmann::json::exception& e) {
        message = "ignored " + path + " (" + e.what() + "); using default settings";
        return Settings{};
    }
    return sanitized(s);
}

Outcome<void> save_settings(const Settings& s) {
    std::error_code ec;
    std::filesystem::create_directories(config_dir(), ec);
    const std::string path = config_dir() + "/settings.json";
    std::ofstream f(path);
    if (!f) return failed("could not save settings to " + path);
    const nlohmann::json j = {{"ui_scale", s.ui_scale},       {"colorblind_palette", s.colorblind_palette},
                              {"color_mode", s.color_mode},   {"export_scale", s.export_scale},
                              {"export_dir", s.export_dir},   {"left_width", s.left_width},
                              {"right_width", s.right_width}, {"last_preset", s.last_preset}};
    f << j.dump(2) << "\n";
    return f ? done() : failed("could not save settings to " + path);
}

}  // namespace threadmap
