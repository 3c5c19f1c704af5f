// Settings and layout on disk: $XDG_CONFIG_HOME/threadmap/ (default ~/.config/threadmap/),
// settings.json for ours and imgui.ini for ImGui's own window state.
#pragma once

#include <string>
#include <vector>

#include "kernels/source/child_run.hpp"
#include "kernels/core/outcome.hpp"

#include "app/window_state/app_state.hpp"

namespace threadmap {

std::string config_dir();  // created on demand by save_settings

// Reads the settings file; it never fails: a missing file gives the defaults, an unreadable
// one the defaults (the file kept aside) with a note saying so, a bad key its default and a note.
struct LoadedSettings {
    Settings settings;
    std::string note;  // for the status line; empty when the file was read as written
};
LoadedSettings load_settings();

// The settings in a file's text: problem set (and defaults) when it cannot be read at all;
// `dropped` names each key of the wrong type, whose default is kept.
struct SettingsText {
    Settings settings;
    std::string problem;
    std::vector<std::string> dropped;
};
SettingsText parse_settings(const std::string& text);
// Returns an empty string, or why the file could not be written.
Outcome<void> save_settings(const Settings& settings);

// Keeps values in their ranges (a hand-edited file may hold anything).
Settings sanitized(Settings s);
// The time and memory a run of a learner's kernel has, from the (sanitized) settings.
RunLimits kernel_limits(const Settings& settings);

}  // namespace threadmap
