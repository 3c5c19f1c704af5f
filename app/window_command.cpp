// Window command line; see window_command.hpp.
#include "window_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "backend_choice.hpp"

namespace threadmap {

namespace {

bool any_launch_option(const LaunchOptions& l) {
    return !l.preset.empty() || !l.kernel.empty() || !l.n.empty() || !l.rows.empty() || !l.cols.empty() ||
           !l.inner.empty() || !l.block.empty() || !l.grid.empty();
}

}  // namespace

void add_window_options(CLI::App& app, WindowCommandOptions& o) {
    add_launch_options(app, o.launch);
    WindowOptions& w = o.window;
    app.add_option("--screenshot", w.screenshot, "Save the window as PNG after --quit-after-frames frames, then quit");
    app.add_option("--quit-after-frames", w.quit_after_frames, "Quit after this many frames")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--window-size", o.window_size, "Window size WxH (default 1600x900)");
    app.add_option("--replay", w.replay, "Scripted input, for tests and benchmarks (see app/replay.hpp)");
    app.add_option("--frame-report", w.frame_report, "Write frame and update times as JSON when the window closes");
    app.add_flag("--no-settings", w.keep_settings, "Neither read nor save settings (tests)");
}

int run_window_command(WindowCommandOptions o) {
    const auto fail = [](const std::string& why) {
        std::fprintf(stderr, "threadmap: %s\n", why.c_str());
        return 2;
    };
    WindowOptions& w = o.window;
    if (!o.window_size.empty()) {
        const auto size = parse_size(o.window_size, "--window-size", 200, 150, 16384);
        if (!size.value) return fail(size.error);
        w.width = size.value->width;
        w.height = size.value->height;
    }
    w.backend = o.launch.backend;
    if (w.backend == "cuda") {  // insisted on and impossible: say so before opening a window
        const BackendResult b = choose_backend("cuda");
        if (!b.value) return fail(b.error);
    }
    if (any_launch_option(o.launch)) {
        auto resolved = resolve_launch(o.launch);
        if (!resolved.value) return fail(resolved.error);
        w.launch = resolved.value;
    }
    if (!w.screenshot.empty() && w.quit_after_frames == 0) w.quit_after_frames = 3;
    return run_window(w);
}

}  // namespace threadmap
