// libFuzzer: the launch options of every command (numbers, dim3s, sizes, kernel and preset
// names) never crash and never pass a launch the checks should refuse.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/emulator_caps.hpp"
#include "app/launch/launch_check.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/core/validation.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // Fields separated by newlines: kernel, n, rows, cols, inner, block, grid, preset, size.
    std::vector<std::string> f(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == '\n' && f.size() < 9)
            f.emplace_back();
        else
            f.back() += char(data[i]);
    }
    f.resize(9);
    parse_count(f[1], "--n");
    parse_dim3(f[5], "--block");
    parse_size(f[8], "--size", 64, 64, 16384);
    LaunchOptions o;
    o.kernel = f[0].empty() ? o.kernel : f[0];
    o.n = f[1];
    o.rows = f[2];
    o.cols = f[3];
    o.inner = f[4];
    o.block = f[5];
    o.grid = f[6];
    o.preset = f[7];
    const CheckedLaunch c = check_launch(o);
    if (c.value) {  // accepted: then valid on the cc 9.0 profile and within the emulator's caps
        if (validate_launch(c.value->launch, cc90_profile())) __builtin_trap();
        if (!check_launch_caps(c.value->workload, c.value->launch).done()) __builtin_trap();
    }
    return 0;
}
