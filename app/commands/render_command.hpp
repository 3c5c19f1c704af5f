// `threadmap render`: the map as a PNG figure, drawn offscreen with EGL (no display needed).
#pragma once

#include <string>

#include "app/launch/launch_options.hpp"

namespace threadmap {

struct RenderCommandOptions {
    LaunchOptions launch;
    std::string color;                    // a colour mode name; empty: the --preset lesson's view's, else block
    std::string palette = "standard";     // standard | colorblind
    std::string theme = "light";          // light | dark: figures go into documents
    std::string out;                      // the PNG path (required)
    std::string size = "1920x1080";       // WxH in pixels
    std::string blocks_per_row = "auto";  // 1D rows, in blocks; auto: the shape of the image
    bool no_legend = false;
    bool timing = false;         // the timing figure instead of the map
    std::string device_profile;  // --timing with --backend model
    std::string recording;       // --timing from a `bench --json` file
    std::string session;         // a session file: its launch and colour
};

int run_render_command(RenderCommandOptions options);

}  // namespace threadmap
