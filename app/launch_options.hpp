// The kernel/shape/launch options shared by `map`, `render` and `bench`, and how they turn
// into a Workload and LaunchConfig: a preset first, then whatever was given explicitly.
#pragma once

#include <optional>
#include <string>

#include "launch_config.hpp"
#include "outcome.hpp"
#include "workload.hpp"

namespace CLI {
class App;
}

namespace threadmap {

struct LaunchOptions {
    std::string preset;                // empty: no preset
    std::string kernel;                // empty: the preset's, or the default lesson's
    std::string n, rows, cols, inner;  // kept as text: parsed strictly, with our own messages
    std::string block;                 // "X[,Y[,Z]]"
    std::string grid;                  // "X[,Y[,Z]]"; empty: the covering grid
    std::string backend = "auto";      // cpu | cuda | auto
};

void add_launch_options(CLI::App& command, LaunchOptions& options);

struct ResolvedLaunch {
    std::string preset;  // the lesson used, if any
    Workload workload;
    LaunchConfig launch;
};

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

// The block a user gets without --block: 256 threads for 1D kernels, 16×16 for matmul.
Dim3 default_block(KernelKind kind);

inline constexpr const char* kDefaultLesson = "seed-increment";

}  // namespace threadmap
