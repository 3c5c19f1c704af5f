// Launch checks shared by the commands; see launch_check.hpp.
#include "app/launch/launch_check.hpp"

#include "kernels/core/emulator_caps.hpp"
#include "app/launch/model_launch.hpp"
#include "kernels/core/validation.hpp"

namespace threadmap {

CheckedLaunch check_launch(const LaunchOptions& options, const DeviceLimits& limits) {
    auto resolved = resolve_launch(options);
    if (!resolved.value) return failure_of(resolved);
    return check_resolved(*resolved.value, limits);
}

CheckedLaunch check_resolved(const ResolvedLaunch& r, const DeviceLimits& limits) {
    CheckedLaunch c;
    if (r.model) {  // the kernel model's own checks: parameters, the launch, its caps
        const Dim3& b = r.model->shared_block;
        const Dim3& g = r.launch.grid;
        if (auto arrays = check_model_arrays(model_launch_for(r)))
            c.error = *arrays;
        else if (auto invalid = validate_launch(r.launch, limits))
            c.error = describe(*invalid);
        else if (r.model->shared() && (b.x >= g.x || b.y >= g.y || b.z >= g.z))
            c.error = "the block " + to_string(b) + " whose " + r.mapped_array() +
                      " the map shows is outside gridDim " + to_string(g);
        else if (auto problem = check_model_launch(model_launch_for(r)))
            c.error = *problem;
        else
            c.value = r;
        return c;
    }
    if (auto shape = check_shape(r.workload)) {
        c.error = *shape;
    } else if (auto problem = check_shape_caps(r.workload)) {
        c.error = *problem;
    } else if (auto invalid = validate_launch(r.launch, limits)) {
        c.error = describe(*invalid);
    } else if (auto too_big = check_launch_caps(r.workload, r.launch)) {
        c.error = *too_big;
    } else {
        c.value = r;
    }
    return c;
}

}  // namespace threadmap
