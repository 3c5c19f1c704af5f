// The default device profile; see device_limits.hpp.
#include "kernels/core/device_limits.hpp"

namespace threadmap {

DeviceLimits cc90_profile() {
    DeviceLimits limits;  // the member defaults are the cc 9.0 numbers
    limits.name = "compute capability 9.0 profile (no device queried)";
    return limits;
}

}  // namespace threadmap
