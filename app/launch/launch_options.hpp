// The kernel/shape/launch options every command shares, and how they turn into a Workload and
// LaunchConfig: a preset first, then whatever was given explicitly. The kernel is one of the
// tutorial's four (the fast emulator, a GPU, the timing model) or any other kernel of the
// registry (kernels/builtin), which the kernel model runs.
#pragma once

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/model/kernel_spec.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

struct LaunchOptions {
    std::string preset;                // empty: no preset
    std::string kernel;                // empty: the preset's, or the default lesson's
    std::string n, rows, cols, inner;  // kept as text: parsed strictly, with our own messages
    std::string block;                 // "X[,Y[,Z]]"
    std::string grid;                  // "X[,Y[,Z]]"; empty: the covering grid
    std::string backend = "auto";      // cpu | cuda | auto
    // The registry's own parameters (--bins, --offset, …: those other than --n, --rows, --cols,
    // --inner) as typed, by name; empty when not given.
    std::map<std::string, std::string> params;
    // The array the map shows (any kernel: the tutorial's then run in the kernel model too),
    // who it shows (write | read), and for a __shared__ array the block whose copy.
    std::string array, access, shared_block;
    std::string phase;  // a kernel with barriers: map one phase's accesses (0: before the first barrier)
    // A learner's kernel: its CUDA C++ file, which __global__ function, each parameter's
    // binding (NAME=float[N][:FILL], NAME=VALUE) and the time limit of a run in seconds.
    std::string source, entry;
    std::string source_text;  // the kernel's text when a session file holds it (source: the file's name)
    std::vector<std::string> binds;
    std::string time_limit;
    std::string memory_limit;    // MiB
    std::string dynamic_shared;  // bytes of dynamic shared memory per block (<<<grid, block, bytes>>>)
    // A learner's kernel: the statement that computes the right results (check --sweep-launches
    // compares every launch with it), and whether this command compares with it.
    std::string expect;
    bool sweep_expected = false;
    bool any_param() const;
};

// Whether any option but --backend is given: the window opens that launch, not the last lesson
// (a --source alone once opened the last lesson, the file ignored); a session file takes none.
bool any_launch_option(const LaunchOptions& l);

// A kernel of the registry that only the kernel model runs (histogram-racy, the transposes, …):
// its parameters, and the array the map shows (a global one, or one block's __shared__ one).
struct ModelKernel {
    const KernelSpec* spec = nullptr;
    Params params;
    size_t array = 0;            // by default the kernel's first output
    bool reads = false;          // the map shows who read each element, not who wrote it
    Dim3 shared_block{0, 0, 0};  // a __shared__ array: the copy of this block (blockIdx)
    // A kernel with barriers: only the accesses between barrier `phase` and the next (0: before
    // the first); kAllPhases: all of them.
    uint32_t phase = kAllPhases;
    static constexpr uint32_t kAllPhases = UINT32_MAX;
    // A learner's kernel (--source): keeps its spec and compiled code alive.
    std::shared_ptr<const void> owner;
    // Its expectation (--expect): the one-thread kernel whose results are the right ones.
    const KernelSpec* expected = nullptr;
    std::string warnings;  // Clang's warnings about its text (it compiled)
    bool shared() const { return spec->arrays[array].space == MemorySpace::Shared; }
    bool constant() const { return spec->arrays[array].space == MemorySpace::Constant; }
    bool operator==(const ModelKernel& o) const {
        return spec == o.spec && params == o.params && array == o.array && reads == o.reads &&
               shared_block == o.shared_block && phase == o.phase;
    }
};

struct ResolvedLaunch {
    std::string preset;  // the lesson used, if any, while the launch is the lesson's own
    // The lesson it came from, kept when the learner changes the launch (preset is cleared
    // then): its comparison stays beside the map while the kernel is the lesson's (tiled-matmul
    // asks to step the phase slider and watch both tiles).
    std::string lesson;
    // A model kernel's workload is the kernel model's picture of its mapped array (model_workload).
    Workload workload;
    LaunchConfig launch;
    std::optional<ModelKernel> model;

    const KernelSpec& spec() const;     // the model's, or the registry's for the fast body's
    std::string kernel_name() const;    // "increment", "histogram-racy"
    std::string mapped_array() const;   // "a", "C", "bins"
    std::string array_caption() const;  // "bins", or "As of block (1,2,0)" for a __shared__ one
};

// What a lesson sets its picture against, drawn beside it: another kernel with the same
// parameters (transpose-tiled-padded beside transpose-tiled) or another array of the same kernel
// (tiled-matmul's Bs beside As); the launch and the rest of the view are the map's.
struct Comparison {
    std::string kernel;  // a registry kernel; empty: the map's
    std::string array;   // an array by name; empty: the map's
    bool any() const { return !kernel.empty() || !array.empty(); }
};

// Every built-in kernel's name, joined ("increment | matmul | …" for the help).
std::string all_kernel_names(const char* separator);

// One of the tutorial's kernels as the registry has it (a lesson's store in the loop:
// matmul-store-in-loop), mapping its output.
ModelKernel tutorial_model_kernel(const Workload& workload, bool store_in_loop);
// The workload of a kernel's fast body at the model kernel's parameters (its spec has one).
Workload fast_workload(const ModelKernel& kernel);
// The Model workload of a model kernel's launch (its mapped array's shape at this launch: one
// partial sum per block follows the grid).
Workload model_workload(const ModelKernel& kernel, const LaunchConfig& launch);

// The lesson's view of its kernel: the array it maps, read or written, its phase and block
// (the window and `render --preset` open on it; `map`, `check` and `memory` keep the output).
struct Lesson;
Outcome<void> apply_lesson_view(ResolvedLaunch& launch, const Lesson& lesson);
// The same for a launch of the command line: when `given` names a lesson (--preset) and none of
// --array, --access, --phase or --shared-block, which take its place.
Outcome<void> open_on_lesson_view(ResolvedLaunch& launch, const LaunchOptions& given);

// Applies the options; a usage problem (not a launch-limit problem) comes back as a message.
using ResolveResult = Outcome<ResolvedLaunch>;
ResolveResult resolve_launch(const LaunchOptions& options);

// Strict parsers: digits only, no sign, no overflow. Errors name the option.
Outcome<uint64_t> parse_count(const std::string& text, const std::string& option);
Outcome<Dim3> parse_dim3(const std::string& text, const std::string& option);

// "WIDTHxHEIGHT" within [min_side, max_side] on each side (--size, --window-size).
struct PixelSize {
    int width = 0, height = 0;
};
Outcome<PixelSize> parse_size(const std::string& text, const std::string& option, int min_width, int min_height,
                              int max_side);

// A launch of a registry kernel with its default parameters and block, over the covering grid.
ResolvedLaunch default_model_launch(const KernelSpec& spec);

inline constexpr const char* kDefaultLesson = "seed-increment";

}  // namespace threadmap
