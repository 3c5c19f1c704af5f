// Colour benchmark: colorize_layout over the 4096² matmul-xcol map of scripts/bench-window.sh
// (16.7M cells, blocks of 32×32) and over a map that is nearly all idle threads' ghosts (2^26
// cells, the window's cap), every core, per colour mode, printed as JSON: the best and the median
// of N runs into one buffer. Usage: colour-bench [--repeats N] (default 7).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "viz/color/color_mode.hpp"
#include "viz/layout/map_layout.hpp"

using namespace threadmap;

namespace {

// One map's colouring in each mode: the best and the median of `repeats` runs, as JSON.
void bench_map(const char* name, const Workload& workload, const LaunchConfig& launch, int repeats, bool last) {
    const LaunchResult result = emulate(workload, launch);
    const auto layout = make_layout(workload, launch, {}, 16384);
    if (!layout.value) std::exit(1);
    std::vector<Rgba8> cells(size_t(layout.value->width) * layout.value->height);
    std::printf("\n  {\"map\":\"%s\",\"cells\":%zu,\"modes\":[", name, cells.size());
    const ColorMode modes[] = {ColorMode::Block, ColorMode::ThreadX, ColorMode::Warp,
                               ColorMode::Lane,  ColorMode::Global,  ColorMode::Coverage};
    for (size_t m = 0; m < std::size(modes); ++m) {
        const ColorContext ctx{modes[m], Palette::Standard, launch.grid, launch.block};
        std::vector<double> ms;
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            colorize_layout(*layout.value, result.map, ctx, cells.data(), nullptr);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("%s\n    {\"mode\":\"%s\",\"ms_min\":%.2f,\"ms_median\":%.2f}", m ? "," : "",
                    std::string(color_mode_name(modes[m])).c_str(), ms.front(), ms[ms.size() / 2]);
    }
    std::printf("\n  ]}%s", last ? "" : ",");
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 7;
    if (argc == 3 && std::strcmp(argv[1], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[2]));
    std::printf("{\"cores\":%u,\"maps\":[", std::thread::hardware_concurrency());
    const Workload matmul = matmul_workload(&MatmulXColBody::kernel, 4096, 4096, 16);
    bench_map("matmul-xcol 4096x4096", matmul, {covering_grid(matmul, {32, 32, 1}), {32, 32, 1}}, repeats, false);
    // 1,000 elements and 2^26 threads: every cell but the first thousand an idle thread's ghost.
    bench_map("increment 1000 on 2^26 threads", array_workload(&IncrementBody::kernel, 1000),
              {{1u << 16, 1, 1}, {1024, 1, 1}}, repeats, true);
    std::printf("\n]}\n");
    return 0;
}
