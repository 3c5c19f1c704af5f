// Command-line entry; see cli.hpp.
#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "bench_command.hpp"
#include "build_info.hpp"
#include "check_command.hpp"
#include "compile_command.hpp"
#include "devices_command.hpp"
#include "kernels_command.hpp"
#include "map_command.hpp"
#include "memory_command.hpp"
#include "occupancy_command.hpp"
#if THREADMAP_HAS_GUI
#include "render_command.hpp"
#include "window_command.hpp"
#endif

namespace threadmap {

int run_cli(int argc, char** argv) {
    CLI::App app{"threadmap: see which CUDA thread touches which element of an array or matrix"};
    app.set_version_flag("--version", version_text());
    MapCommandOptions map;
    add_map_command(app, map);
    BenchCommandOptions bench;
    add_bench_command(app, bench);
    add_devices_command(app);
    CheckCommandOptions check;
    add_check_command(app, check);
    CompileCommandOptions compile;
    add_compile_command(app, compile);
    KernelsCommandOptions kernels;
    add_kernels_command(app, kernels);
    OccupancyCommandOptions occupancy;
    add_occupancy_command(app, occupancy);
    MemoryCommandOptions memory;
    add_memory_command(app, memory);
#if THREADMAP_HAS_GUI
    RenderCommandOptions render;
    add_render_command(app, render);
    WindowCommandOptions window;  // no subcommand: the window
    add_window_options(app, window);
#endif
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
    if (app.got_subcommand("map")) return run_map_command(map);
    if (app.got_subcommand("bench")) return run_bench_command(bench);
    if (app.got_subcommand("devices")) return run_devices_command();
    if (app.got_subcommand("check")) return run_check_command(check);
    if (app.got_subcommand("kernels")) return run_kernels_command(kernels);
    if (app.got_subcommand("compile")) return run_compile_command(compile);
    if (app.got_subcommand("occupancy")) return run_occupancy_command(occupancy);
    if (app.got_subcommand("memory")) return run_memory_command(memory);
#if THREADMAP_HAS_GUI
    if (app.got_subcommand("render")) return run_render_command(render);
    return run_window_command(window);
#else
    std::fprintf(stderr,
                 "threadmap: this build has no window (GLFW, Dear ImGui or libepoxy was missing when it was "
                 "built); use threadmap map, check, memory, compile, kernels, occupancy, bench or devices\n");
    return 1;
#endif
}

}  // namespace threadmap
