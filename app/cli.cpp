// Command-line entry; see cli.hpp.
#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "backend_choice.hpp"
#include "bench_command.hpp"
#include "build_info.hpp"
#include "devices_command.hpp"
#include "map_command.hpp"
#include "render_command.hpp"
#include "window.hpp"

namespace threadmap {

namespace {

bool parse_window_size(const std::string& text, int& w, int& h) {
    std::string error;
    const size_t x = text.find('x');
    if (x == std::string::npos) return false;
    const auto pw = parse_count(text.substr(0, x), "--window-size", error);
    const auto ph = parse_count(text.substr(x + 1), "--window-size", error);
    if (!pw || !ph || *pw < 200 || *ph < 150 || *pw > 16384 || *ph > 16384) return false;
    w = int(*pw);
    h = int(*ph);
    return true;
}

}  // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"threadmap: see which CUDA thread touches which element of an array or matrix"};
    app.set_version_flag("--version", version_text());
    std::string window_size;
    MapCommandOptions map;
    add_map_command(app, map);
    RenderCommandOptions render;
    add_render_command(app, render);
    BenchCommandOptions bench;
    add_bench_command(app, bench);
    add_devices_command(app);
    // With no subcommand: the window.
    WindowOptions window;
    LaunchOptions window_launch;  // none given: the lesson used last
    add_launch_options(app, window_launch);
    app.add_option("--screenshot", window.screenshot, "Save the window as PNG after --quit-after-frames frames, then quit");
    app.add_option("--quit-after-frames", window.quit_after_frames, "Quit after this many frames")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--window-size", window_size, "Window size WxH (default 1600x900)");
    app.add_option("--replay", window.replay, "Scripted input, for tests and benchmarks (see app/replay.hpp)");
    app.add_option("--frame-report", window.frame_report, "Write frame and update times as JSON when the window closes");
    app.add_flag("--no-settings", window.keep_settings, "Neither read nor save settings (tests)");
    app.require_subcommand(0, 1);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "threadmap: %s\nRun 'threadmap --help' for the options.\n", e.what());
        return 2;
    }
    if (app.got_subcommand("render")) return run_render_command(render);
    if (app.got_subcommand("map")) return run_map_command(map);
    if (app.got_subcommand("bench")) return run_bench_command(bench);
    if (app.got_subcommand("devices")) return run_devices_command();
    if (!window_size.empty() && !parse_window_size(window_size, window.width, window.height)) {
        std::fprintf(stderr, "threadmap: --window-size expects WIDTHxHEIGHT, e.g. 1920x1080, got '%s'\n",
                     window_size.c_str());
        return 2;
    }
    const bool launch_given = !window_launch.preset.empty() || !window_launch.kernel.empty() ||
                              !window_launch.n.empty() || !window_launch.rows.empty() || !window_launch.cols.empty() ||
                              !window_launch.inner.empty() || !window_launch.block.empty() || !window_launch.grid.empty();
    window.backend = window_launch.backend;
    if (window.backend == "cuda") {  // insisted on and impossible: say so before opening a window
        const BackendResult b = choose_backend("cuda");
        if (!b.choice) {
            std::fprintf(stderr, "threadmap: %s\n", b.error.c_str());
            return 2;
        }
    }
    if (launch_given) {
        auto resolved = resolve_launch(window_launch);
        if (!resolved.value) {
            std::fprintf(stderr, "threadmap: %s\n", resolved.error.c_str());
            return 2;
        }
        window.launch = resolved.value;
    }
    if (!window.screenshot.empty() && window.quit_after_frames == 0) window.quit_after_frames = 3;
    return run_window(window);
}

}  // namespace threadmap
