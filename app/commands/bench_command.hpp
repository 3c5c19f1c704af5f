// `threadmap bench`: times of host→device copy, kernel and device→host copy — measured with
// CUDA events on a GPU, or modeled from a device profile (--backend model) — or of the CPU
// computation alone, next to a competent CPU reference (always measured). --sweep runs the
// kernel from tiny to large sizes and finds where the GPU wins. Every figure says where it
// comes from. JSON with --json, CSV with --csv.
#pragma once

#include <string>

#include "app/launch/launch_options.hpp"

namespace threadmap {

struct BenchCommandOptions {
    LaunchOptions launch;
    std::string repeat;                      // repeats per stage (empty: the lesson's, else 10)
    bool pinned = false;                     // page-locked host memory (or the lesson's setting)
    bool resident = false;                   // copy once, launch R times (or the lesson's setting)
    std::string language, dtype, transfers;  // the program timed (empty: the lesson's, else CUDA C++ float32)
    bool json = false;
    bool csv = false;
    std::string device_profile;  // --backend model: a profile's name, or "list"
    bool sweep = false;
    std::string from, to;       // sweep range in elements (default: by kernel)
    std::string points = "30";  // sweep sizes
};

int run_bench_command(const BenchCommandOptions& options);

}  // namespace threadmap
