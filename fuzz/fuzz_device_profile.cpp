// libFuzzer: a device profile is parsed whole or refused; one that is accepted models every
// program with finite, non-negative seconds.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "app/launch/device_profiles.hpp"
#include "kernels/builtin/kernel_bodies.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Outcome<DeviceProfile> parsed = parse_device_profile(std::string(reinterpret_cast<const char*>(data), size));
    if (!parsed.value) return 0;
    const DeviceProfile& p = *parsed.value;
    for (bool fast : {true, false}) {
        const DeviceProfile b = profile_at_bound(p, fast);
        for (const TimedProgram& program :
             {TimedProgram{}, TimedProgram{HostLanguage::Numba, ElementType::Float64, Transfers::HostArrays}}) {
            const Workload workload = matmul_workload(&MatmulBody::kernel, 300, 300, 200);
            const ModeledTimes t = model_times(b, workload_cost(workload, program), program, false, true, 10);
            for (double s : {t.alloc, t.h2d, t.kernel, t.d2h, t.first_launch})
                if (!(s >= 0) || std::isnan(s)) __builtin_trap();
        }
    }
    return 0;
}
