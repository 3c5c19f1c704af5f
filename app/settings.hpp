// Settings and layout on disk: $XDG_CONFIG_HOME/threadmap/ (default ~/.config/threadmap/),
// settings.json for ours and imgui.ini for ImGui's own window state.
#pragma once

#include <string>

#include "outcome.hpp"

#include "app_state.hpp"

namespace threadmap {

std::string config_dir();  // created on demand by save_settings

// Reads the settings file; a missing file gives the defaults, a malformed one the defaults
// and a message saying so (never an exception).
Settings load_settings(std::string& message);
// Returns an empty string, or why the file could not be written.
Outcome<void> save_settings(const Settings& settings);

// Keeps values in their ranges (a hand-edited file may hold anything).
Settings sanitized(Settings s);

}  // namespace threadmap
