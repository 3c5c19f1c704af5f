// Settings persistence; see settings.hpp.
#include "app/window_state/settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

#include "app/window_state/export_names.hpp"
#include "app/launch/input_file.hpp"
#include "app/launch/json_numbers.hpp"

#include "viz/draw/legend.hpp"
#include "app/launch/lessons.hpp"

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
    if (s.theme != "dark" && s.theme != "light") s.theme = "dark";
    if (!(s.kernel_seconds >= Settings::kMinKernelSeconds)) s.kernel_seconds = Settings::kMinKernelSeconds;  // NaN too
    s.kernel_seconds = std::min(s.kernel_seconds, Settings::kMaxKernelSeconds);
    if (!(s.kernel_memory_mb >= Settings::kMinKernelMemoryMb)) s.kernel_memory_mb = Settings::kMinKernelMemoryMb;
    s.kernel_memory_mb = std::min(s.kernel_memory_mb, Settings::kMaxKernelMemoryMb);
    return s;
}

RunLimits kernel_limits(const Settings& settings) {
    const Settings s = sanitized(settings);
    return {s.kernel_seconds, uint64_t(s.kernel_memory_mb) << 20};
}

namespace {

// The field's value when the key holds the right type; else the key is named in `dropped`.
template <class T>
void take(const nlohmann::json& j, const char* key, const char* expected, T& field, std::vector<std::string>& dropped) {
    if (!j.contains(key)) return;
    const nlohmann::json& v = j.at(key);
    bool fits = false;
    if constexpr (std::is_same_v<T, bool>) {
        if ((fits = v.is_boolean())) field = v.get<bool>();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if ((fits = v.is_string())) field = v.get<std::string>();
    } else {
        if ((fits = json_fits<T>(v))) field = json_number<T>(v, key);
    }
    if (!fits) dropped.push_back(std::string(key) + " (expected " + expected + ")");
}

}  // namespace

SettingsText parse_settings(const std::string& text) {
    SettingsText r;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        r.problem = std::string("it is not JSON: ") + e.what();
        return r;
    }
    if (!j.is_object()) {
        r.problem = "it is not a JSON object";
        return r;
    }
    Settings& s = r.settings;
    take(j, "ui_scale", "a number", s.ui_scale, r.dropped);
    take(j, "colorblind_palette", "true or false", s.colorblind_palette, r.dropped);
    take(j, "color_mode", "text", s.color_mode, r.dropped);
    take(j, "export_scale", "a whole number", s.export_scale, r.dropped);
    take(j, "export_dir", "text", s.export_dir, r.dropped);
    take(j, "left_width", "a number", s.left_width, r.dropped);
    take(j, "right_width", "a number", s.right_width, r.dropped);
    take(j, "last_preset", "text", s.last_preset, r.dropped);
    take(j, "kernel_seconds", "a number", s.kernel_seconds, r.dropped);
    take(j, "kernel_memory_mb", "a number", s.kernel_memory_mb, r.dropped);
    take(j, "presentation", "true or false", s.presentation, r.dropped);
    take(j, "lesson_card_open", "true or false", s.lesson_card_open, r.dropped);
    take(j, "theme", "text", s.theme, r.dropped);
    s = sanitized(s);
    return r;
}

LoadedSettings load_settings() {
    const std::string path = config_dir() + "/settings.json";
    if (!path_exists(path)) return {};  // the first start
    const auto text = read_input_file(path, kMaxSettingsBytes, "settings file");
    const SettingsText parsed = text.value ? parse_settings(*text.value) : SettingsText{{}, text.error, {}};
    if (!parsed.problem.empty()) {  // kept aside, never overwritten: the learner may want it back
        const std::string aside = path + ".bad-" + file_stamp(std::time(nullptr));
        std::error_code ec;
        std::filesystem::rename(path, aside, ec);
        return {{},
                "could not read " + path + " (" + parsed.problem + "); " +
                    (ec ? "could not move it aside (" + ec.message() + ")" : "kept it as " + aside) +
                    "; using the default settings"};
    }
    LoadedSettings loaded{parsed.settings, ""};
    if (!parsed.dropped.empty()) {
        loaded.note = path + ": ignored ";
        for (size_t i = 0; i < parsed.dropped.size(); ++i) loaded.note += (i ? ", " : "") + parsed.dropped[i];
        loaded.note += "; the other settings kept";
    }
    return loaded;
}

Outcome<void> save_settings(const Settings& s) {
    std::error_code ec;
    std::filesystem::create_directories(config_dir(), ec);
    const nlohmann::json j = {{"ui_scale", s.ui_scale},
                              {"colorblind_palette", s.colorblind_palette},
                              {"color_mode", s.color_mode},
                              {"export_scale", s.export_scale},
                              {"export_dir", s.export_dir},
                              {"left_width", s.left_width},
                              {"right_width", s.right_width},
                              {"last_preset", s.last_preset},
                              {"kernel_seconds", s.kernel_seconds},
                              {"presentation", s.presentation},
                              {"lesson_card_open", s.lesson_card_open},
                              {"theme", s.theme},
                              {"kernel_memory_mb", s.kernel_memory_mb}};
    const auto written = write_file_atomically(config_dir() + "/settings.json", j.dump(2) + "\n");
    return written.done() ? done() : failed("could not save the settings: " + written.error);
}

}  // namespace threadmap
