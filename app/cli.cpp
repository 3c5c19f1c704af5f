// The command line: every subcommand and its flags, their parsing, and the run of the command
// given. The one file that includes CLI11: its header emits the same code into each file that
// includes it (8 s of compiling each, 25 s under the sanitizers), so the commands' files take
// their options as plain structs (*_command.hpp) and never see it.
//
// Sections: the launch options every command shares; each command's own; run_cli.
#include "app/cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>

#include "app/commands/bench_command.hpp"
#include "app/launch/build_info.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/commands/check_command.hpp"
#include "app/commands/compile_command.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/commands/devices_command.hpp"
#include "app/commands/kernels_command.hpp"
#include "app/commands/lessons_command.hpp"
#include "app/launch/lessons.hpp"
#include "app/commands/map_command.hpp"
#include "app/commands/memory_command.hpp"
#include "kernels/occupancy/sm_properties.hpp"
#include "app/commands/occupancy_command.hpp"
#if THREADMAP_HAS_GUI
#include "viz/draw/legend.hpp"
#include "app/commands/render_command.hpp"
#include "app/commands/window_command.hpp"
#endif

namespace threadmap {

namespace {

// ---- The launch options every command shares ----

// Parameters the shape options already carry.
bool shape_option_param(const std::string& name) {
    return name == "n" || name == "rows" || name == "cols" || name == "inner";
}

// An empty value (`--registers ''`) would read as "not given" later: every option that takes a
// value, of every command, refuses one where it is typed (refuse_empty_values).
void refuse_empty_values(CLI::App& app) {
    static const CLI::Validator non_empty(
        [](std::string& v) { return v.empty() ? std::string("an empty value") : std::string(); }, "VALUE");
    for (CLI::Option* option : app.get_options([](const CLI::Option* o) { return o->get_type_size_max() > 0; }))
        option->check(non_empty);
    for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) refuse_empty_values(*command);
}

// The lesson, kernel, shape, launch and backend, and which array and access the map shows.
void add_shape_options(CLI::App& cmd, LaunchOptions& o) {
    cmd.add_option("--preset", o.preset, "A lesson by its id (threadmap lessons lists them, in order)");
    cmd.add_option("--kernel", o.kernel, all_kernel_names(" | ") + " (threadmap kernels lists them)");
    cmd.add_option("--n", o.n, "n: the array length, for the kernels that take it");
    cmd.add_option("--rows", o.rows, "Rows of C (matmul kernels) or of in (transposes)");
    cmd.add_option("--cols", o.cols, "Columns of C (matmul kernels) or of in (transposes)");
    cmd.add_option("--inner", o.inner, "Inner dimension of A·B (default: --cols)");
    cmd.add_option("--block", o.block, "blockDim X[,Y[,Z]] (default 256, or 16,16 for matmul)");
    cmd.add_option("--grid", o.grid, "gridDim X[,Y[,Z]] (default: ceiling division of the shape)");
    cmd.add_option("--backend", o.backend,
                   "cpu | cuda | auto (default auto: a CUDA device when there is one); bench also takes model")
        ->check(CLI::IsMember({"cpu", "cuda", "auto", "model"}));
    cmd.add_option("--array", o.array,
                   "Map this array of the kernel, global or __shared__ (threadmap kernels lists them; default: its "
                   "output); the kernel then runs in the kernel model");
    cmd.add_option("--access", o.access, "write | read: who wrote or who read each element (default write)")
        ->check(CLI::IsMember({"write", "read"}));
    cmd.add_option("--phase", o.phase,
                   "A kernel with __syncthreads(): map only the accesses between barrier K and the next (0: before "
                   "the first)");
    cmd.add_option("--shared-block", o.shared_block,
                   "--array of a __shared__ array: the block X[,Y[,Z]] whose copy (default 0)");
}

// A learner's kernel: its file, entry, bindings, expectation and limits.
void add_source_options(CLI::App& cmd, LaunchOptions& o) {
    cmd.add_option("--source", o.source,
                   "Your own kernel: a CUDA C++ file, compiled on the CPU (bind its parameters with --bind)");
    cmd.add_option("--entry", o.entry, "--source: the __global__ function to run (default: the only one)");
    cmd.add_option("--bind", o.binds,
                   "--source: one parameter, NAME=float[N][:FILL] or NAME=int[ROWS][COLS][:FILL] for a pointer "
                   "(FILL: zeros, ones, index, random, random:SEED), NAME=VALUE for a number; once per parameter "
                   "(with the --preset of a lesson that has its own source: replaces that lesson's binding)");
    cmd.add_option("--dynamic-shared", o.dynamic_shared,
                   "--source: dynamic shared memory per block in bytes, for an extern __shared__ array (the third "
                   "value of <<<grid, block, bytes>>>)");
    cmd.add_option("--expect", o.expect,
                   "--source with check --sweep-launches: a C++ statement over the kernel's parameters that computes "
                   "the right results, run by one thread (\"for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\"); "
                   "every launch is compared with it");
    cmd.add_option("--time-limit", o.time_limit,
                   "--source: seconds a run of the kernel may take before it is stopped (default 5)");
    cmd.add_option("--memory-limit", o.memory_limit,
                   "--source: MiB of memory a run of the kernel may take before it is stopped (default 2048; the "
                   "kernel model keeps up to 64 bytes per element, 20 for check)");
}

// One option per parameter of the registry's kernels (--offset, --bins, …), naming its kernels.
void add_kernel_param_options(CLI::App& cmd, LaunchOptions& o) {
    for (const KernelSpec* spec : builtin_kernels())
        for (const ParamSpec& p : spec->params) {
            if (shape_option_param(p.name) || o.params.count(p.name)) continue;
            std::string kernels;
            for (const KernelSpec* other : builtin_kernels())
                if (other->param_index(p.name) < other->params.size())
                    kernels += (kernels.empty() ? "" : ", ") + other->name;
            cmd.add_option("--" + p.name, o.params[p.name], p.help + " (" + kernels + ")");
        }
}

void add_launch_options(CLI::App& cmd, LaunchOptions& o) {
    add_shape_options(cmd, o);
    add_source_options(cmd, o);
    add_kernel_param_options(cmd, o);
}

// ---- Each command's own flags ----

void add_map_command(CLI::App& app, MapCommandOptions& o) {
    auto* cmd = app.add_subcommand("map", "Print which thread touches which element, and the launch statistics");
    add_launch_options(*cmd, o.launch);
    cmd->add_option("--format", o.format, "table | csv | json (default table)")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    cmd->add_flag("--no-elements", o.no_elements, "Statistics only");
}

void add_bench_command(CLI::App& app, BenchCommandOptions& o) {
    auto* cmd = app.add_subcommand("bench", "Time host→device copy, kernel and device→host copy, next to the CPU");
    add_launch_options(*cmd, o.launch);
    cmd->add_option("--repeat", o.repeat, "Repeats per stage (default: the --preset lesson's, else 10)");
    cmd->add_flag("--pinned", o.pinned, "Page-locked host memory (cudaMallocHost) instead of pageable");
    cmd->add_flag("--resident", o.resident, "Copy once, launch --repeat times, copy back once");
    cmd->add_option("--language", o.language,
                    "The program timed: cuda (C++) or numba (default: the lesson's, else cuda)");
    cmd->add_option("--dtype", o.dtype, "Its element type: float32 or float64 (default: the lesson's, else float32)");
    cmd->add_option("--transfers", o.transfers,
                    "How its arrays reach the GPU: explicit, or host-arrays (numba copies every array in and back "
                    "on every call) (default: the lesson's, else explicit)");
    cmd->add_flag("--json", o.json, "JSON instead of a table");
    cmd->add_flag("--csv", o.csv, "CSV instead of a table");
    cmd->add_option("--device-profile", o.device_profile,
                    "With --backend model: a device profile (" + device_profile_names() + "), or 'list'");
    cmd->add_flag("--sweep", o.sweep, "Run the kernel from tiny to large sizes; find where the GPU wins");
    cmd->add_option("--from", o.from, "Sweep: smallest size in elements (default 1024, or 256 for matmul)");
    cmd->add_option("--to", o.to, "Sweep: largest size in elements (default 16777216, or 262144 for matmul)");
    cmd->add_option("--points", o.points, "Sweep: number of sizes (default 30)");
}

void add_devices_command(CLI::App& app) {
    app.add_subcommand("devices",
                       "List CUDA devices (name, compute capability, SMs, memory), or say why there are none");
}

void add_check_command(CLI::App& app, CheckCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "check", "Run a launch in the kernel model and print its findings (exit 0: none, 3: some, 2: bad usage)");
    add_launch_options(*cmd, o.launch);
    cmd->get_option("--backend")->description("check always runs in the kernel model on the CPU");
    cmd->add_option("--format", o.format, "text | json")->check(CLI::IsMember({"text", "json"}));
    cmd->add_flag("--sweep-launches", o.sweep_launches,
                  "Where the kernel breaks: run it over awkward launches (a single block, a block that does not "
                  "divide the data, 2-D and 3-D blocks, a grid too small, …) and list those whose results or "
                  "findings differ from this launch's (exit 3 if any)");
}

void add_compile_command(CLI::App& app, CompileCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "compile",
        "Compile a kernel's CUDA C++ with Clang (for the kernel model, on this CPU) and NVRTC (for a GPU; no GPU "
        "needed): each one's verdict, messages and time");
    cmd->add_option("--source", o.source, "A CUDA C++ file");
    cmd->add_option("--kernel", o.kernel, "A built-in kernel: its CUDA text, as the Code tab shows it");
    cmd->add_option("--preset", o.preset, "A lesson: its kernel's text");
    cmd->add_option("--arch", o.arch, "NVRTC's GPU architecture, compute_XY (default compute_90, an H200's)");
    cmd->add_option("--format", o.format, "text | json")->check(CLI::IsMember({"text", "json"}));
}

void add_kernels_command(CLI::App& app, KernelsCommandOptions& o) {
    CLI::App* cmd =
        app.add_subcommand("kernels", "List the built-in kernels: parameters, arrays, shared memory, barriers");
    cmd->add_option("--format", o.format, "text | json")->check(CLI::IsMember({"text", "json"}));
}

void add_lessons_command(CLI::App& app, LessonsCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand("lessons", "List the lessons in the curriculum's order: id, title, group");
    cmd->add_option("--format", o.format, "text | json")->check(CLI::IsMember({"text", "json"}));
}

void add_occupancy_command(CLI::App& app, OccupancyCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "occupancy", "Blocks per SM, occupancy, its limiter and the waves of a launch, by CUDA's occupancy calculator");
    add_launch_options(*cmd, o.launch);
    cmd->get_option("--backend")->description("occupancy is computed, not run: the option is ignored");
    cmd->add_option("--device-profile", o.device_profile, "The GPU: a device profile (" + device_profile_names() + ")");
    cmd->add_option("--cc", o.cc, "The GPU's compute capability (" + sm_property_names() + "), with --sms");
    cmd->add_option("--sms", o.sms, "The GPU's number of SMs (with --cc; with a profile it replaces the profile's)");
    cmd->add_option("--registers", o.registers, "Registers per thread instead of the compiler's (0 to 255)");
    cmd->add_option("--shared-bytes", o.shared_bytes,
                    "Shared memory per block in bytes (static and dynamic) instead of the kernel's arrays'");
    cmd->add_flag(
        "--sweep", o.sweep,
        "Add the block-size sweep (32 to 1024 threads per block: occupancy, waves, modeled kernel time with a "
        "device profile); built-in kernels and lessons");
    cmd->add_flag("--json", o.json, "JSON: compute_capability, sms, block_size, ..., waves, last_wave_fill");
}

void add_memory_command(CLI::App& app, MemoryCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "memory",
        "Warp requests of a launch: global sectors per request (coalescing), shared-memory bank conflicts and active "
        "lanes, per source line and in all, counted in the kernel model as Nsight Compute counts them");
    add_launch_options(*cmd, o.launch);
    cmd->get_option("--backend")->description("memory runs in the kernel model on the CPU");
    auto* json = cmd->add_flag("--json", o.json, "JSON: kernel, launch, sites, totals, model (README has the schema)");
    cmd->add_flag("--csv", o.csv, "CSV: one row per access site")->excludes(json);
}

#if THREADMAP_HAS_GUI
void add_render_command(CLI::App& app, RenderCommandOptions& o) {
    auto* cmd = app.add_subcommand("render", "Draw the map as a PNG, with no display needed (EGL)");
    add_launch_options(*cmd, o.launch);
    cmd->add_option("--session", o.session,
                    "A session file the window saved (.threadmap): its launch and colour, its map (with --timing, "
                    "its timings); no other launch options with it");
    cmd->add_option("--color", o.color, color_mode_names(" | ", " | ") + " (default block)");
    cmd->add_option("--palette", o.palette, "standard | colorblind (default standard)")
        ->check(CLI::IsMember({"standard", "colorblind"}));
    cmd->add_option("--theme", o.theme, "light | dark (default light: figures for documents and slides)")
        ->check(CLI::IsMember({"light", "dark"}));
    cmd->add_option("--out", o.out, "PNG file to write")->required();
    cmd->add_option("--size", o.size, "Image size WxH (default 1920x1080)");
    cmd->add_option("--blocks-per-row", o.blocks_per_row,
                    "1D arrays: blocks per row, or auto to give the map the image's shape (default auto)");
    cmd->add_flag("--no-legend", o.no_legend, "Leave out the legend");
    cmd->add_flag("--timing", o.timing, "Draw the timings (copies, kernel, CPU, and a size sweep) instead of the map");
    cmd->add_option("--device-profile", o.device_profile,
                    "--timing with --backend model, or --color sm|wave: a device profile (default for sm|wave: this "
                    "machine's GPU)");
    cmd->add_option("--recording", o.recording, "--timing: a file written by threadmap bench --json on a GPU");
}

void add_window_options(CLI::App& app, WindowCommandOptions& o) {
    add_launch_options(app, o.launch);
    app.add_option("session", o.session,
                   "A session file (.threadmap, saved by the window's Save session): open its launch and view");
    WindowOptions& w = o.window;
    app.add_option("--screenshot", w.screenshot, "Save the window as PNG after --quit-after-frames frames, then quit");
    app.add_option("--quit-after-frames", w.quit_after_frames, "Quit after this many frames")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--window-size", o.window_size, "Window size WxH (default 1600x900)");
    app.add_option("--replay", w.replay, "Scripted input, for tests and benchmarks (see app/window/replay.hpp)");
    app.add_option("--frame-report", w.frame_report, "Write frame and update times as JSON when the window closes");
    app.add_flag("--no-settings", w.keep_settings, "Neither read nor save settings (tests)");
    // The figure options render takes, for a demo prepared from a script or a desktop shortcut.
    app.add_option("--color", w.color, "The colour mode at start: " + color_mode_names(" | ", " | "));
    app.add_option("--theme", w.theme, "dark | light (default: the settings', dark)")
        ->check(CLI::IsMember({"dark", "light"}));
    app.add_flag("--presentation", w.presentation,
                 "Start in presentation mode (F11): the picture with a launch bar, no side columns");
}
#endif

}  // namespace

// ---- run_cli ----

namespace {

// Parses the command line; an exit code when that is all there is to do (help, the version,
// or a bad flag: its message and exit 2).
std::optional<int> parse_arguments(CLI::App& app, int argc, char** argv) {
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
    return std::nullopt;
}

}  // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"threadmap: see which CUDA thread touches which element of an array or matrix"};
    app.set_version_flag("--version", version_text());
    app.footer(
        "The course: threadmap lessons lists its lessons by group; --preset ID opens one (in the window and "
        "in every command).");
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
    LessonsCommandOptions lesson_list;
    add_lessons_command(app, lesson_list);
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
    refuse_empty_values(app);
    if (const auto done = parse_arguments(app, argc, argv)) return *done;
    if (app.got_subcommand("map")) return run_map_command(map);
    if (app.got_subcommand("bench")) return run_bench_command(bench);
    if (app.got_subcommand("devices")) return run_devices_command();
    if (app.got_subcommand("check")) return run_check_command(check);
    if (app.got_subcommand("kernels")) return run_kernels_command(kernels);
    if (app.got_subcommand("lessons")) return run_lessons_command(lesson_list);
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
