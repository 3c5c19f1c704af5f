// Printing of launch shapes; see launch_config.hpp.
#include "kernels/core/launch_config.hpp"

namespace threadmap {

std::string to_string(const Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace threadmap
