// `threadmap bench`: measured times of host→device copy, kernel and device→host copy (CUDA
// events, on a GPU), or of the CPU computation alone, next to a competent CPU reference.
// Every figure says where it comes from ("measured"). JSON with --json.
#pragma once

#include <string>

#include "launch_options.hpp"

namespace CLI {
class App;
}

namespace threadmap {

struct BenchCommandOptions {
    LaunchOptions launch;
    std::string repeat = "10";  // repeats per stage
    bool pinned = false;        // page-locked host memory
    bool resident = false;      // copy once, launch R times
    bool json = false;
};

void add_bench_command(CLI::App& app, BenchCommandOptions& options);
int run_bench_command(const BenchCommandOptions& options);

}  // namespace threadmap
