// Export file names; see export_names.hpp.
#include "app/window_state/export_names.hpp"

namespace threadmap {

std::string file_stamp(std::time_t when) {
    char stamp[32];
    std::tm local{};
    localtime_r(&when, &local);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    return stamp;
}

std::string export_file_name(const ResolvedLaunch& resolved, const std::string& mode, bool whole_window,
                             std::time_t when) {
    const auto dim = [](const Dim3& d) {
        return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
    };
    const std::string what = resolved.preset.empty() ? resolved.kernel_name() : resolved.preset;
    return "threadmap-" + what + "-grid" + dim(resolved.launch.grid) + "-block" + dim(resolved.launch.block) + "-" +
           mode + (whole_window ? "-window-" : "-") + file_stamp(when) + ".png";
}

}  // namespace threadmap
