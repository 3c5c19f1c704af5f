// The window: GLFW + Dear ImGui 1.86 + OpenGL 3.3 core, the frame loop, exports and
// scripted runs (--screenshot, --quit-after-frames, --replay).
#pragma once

#include <optional>
#include <string>

#include "app/launch/launch_options.hpp"

namespace threadmap {

struct WindowOptions {
    std::optional<ResolvedLaunch> launch;  // from the command line; none: the last lesson used
    // --source: the file's text, with its --entry, --bind and --dynamic-shared, opened in the
    // Editor tab (so the editor shows the kernel on the map).
    std::optional<LaunchOptions> source;
    std::string source_text;
    int width = 1600, height = 900;  // initial window size
    std::string screenshot;          // with quit_after_frames: capture that frame, then quit
    int quit_after_frames = 0;       // 0: run until closed
    std::string replay;              // a scripted-input file (see replay.hpp)
    std::string frame_report;        // write frame and update times as JSON on exit
    bool keep_settings = false;      // tests: neither read nor write the user's settings
    std::string backend = "auto";    // cpu | cuda | auto
    // The figure options (--color, --theme, --presentation): over the settings for this window.
    std::optional<std::string> color, theme;
    bool presentation = false;
    std::string tab;  // the centre tab at start (a session's); empty: the map, or the lesson's
};

int run_window(const WindowOptions& options);  // the process exit code

}  // namespace threadmap
