// The top-level options that open the window (no subcommand): the launch options, scripted
// runs (--screenshot, --quit-after-frames, --replay) and test and benchmark switches.
#pragma once

#include <string>

#include "app/launch/launch_options.hpp"
#include "app/window/window.hpp"

namespace threadmap {

struct WindowCommandOptions {
    LaunchOptions launch;  // none given: the lesson used last
    WindowOptions window;
    std::string window_size;  // WxH; empty: the default
    std::string session;      // a session file (threadmap FILE.threadmap); empty: none
};

int run_window_command(WindowCommandOptions options);

}  // namespace threadmap
