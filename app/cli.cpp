// Command-line entry; see cli.hpp.
#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "build_info.hpp"
#include "map_command.hpp"
#include "render_command.hpp"

namespace threadmap {

int run_cli(int argc, char** argv) {
    CLI::App app{"threadmap: see which CUDA thread touches which element of an array or matrix"};
    app.set_version_flag("--version", version_text());
    MapCommandOptions map;
    add_map_command(app, map);
    RenderCommandOptions render;
    add_render_command(app, render);
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
    // With no subcommand: the default lesson's map (the window takes this over later).
    return run_map_command(map);
}

}  // namespace threadmap
