// Colour benchmark: colorize_layout over the 4096² matmul-xcol map of scripts/bench-window.sh
// (16.7M cells, blocks of 32×32, every core), per colour mode, printed as JSON: the best and the
// median of N runs into one buffer. Usage: colour-bench [--repeats N] (default 7).
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

int main(int argc, char** argv) {
    int repeats = 7;
    if (argc == 3 && std::strcmp(argv[1], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[2]));
    const Workload workload = matmul_workload(&MatmulXColBody::kernel, 4096, 4096, 16);
    const LaunchConfig launch{covering_grid(workload, {32, 32, 1}), {32, 32, 1}};
    const LaunchResult result = emulate(workload, launch);
    const auto layout = make_layout(workload, launch, {}, 16384);
    if (!layout.value) return 1;
    std::vector<Rgba8> cells(size_t(layout.value->width) * layout.value->height);
    std::printf("{\"cores\":%u,\"cells\":%zu,\"modes\":[", std::thread::hardware_concurrency(), cells.size());
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
        std::printf("%s\n  {\"mode\":\"%s\",\"ms_min\":%.2f,\"ms_median\":%.2f}", m ? "," : "",
                    std::string(color_mode_name(modes[m])).c_str(), ms.front(), ms[ms.size() / 2]);
    }
    std::printf("\n]}\n");
    return 0;
}
