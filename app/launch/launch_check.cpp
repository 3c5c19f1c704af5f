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

CheckedLaunch check_resolved(const ResolvedLaunch& resolved, const DeviceLimits& limits) {
    CheckedLaunch c;
    if (resolved.model) {  // the kernel model's own checks: parameters, the launch, its caps
        const Dim3& b = resolved.model->shared_block;
        const Dim3& g = resolved.launch.grid;
        if (const Outcome<void> arrays = check_model_arrays(model_launch_for(resolved)); !arrays.done())
            c.error = arrays.error;
        else if (auto invalid = validate_launch(resolved.launch, limits))
            c.error = describe(*invalid);
        else if (resolved.model->shared() && (b.x >= g.x || b.y >= g.y || b.z >= g.z))
            c.error = "the block " + to_string(b) + " whose " + resolved.mapped_array() +
                      " the map shows is outside gridDim " + to_string(g);
        else if (const Outcome<void> problem = check_model_launch(model_launch_for(resolved)); !problem.done())
            c.error = problem.error;
        else
            c.value = resolved;
        return c;
    }
    if (const Outcome<void> shape = check_shape(resolved.workload); !shape.done()) {
        c.error = shape.error;
    } else if (const Outcome<void> problem = check_shape_caps(resolved.workload); !problem.done()) {
        c.error = problem.error;
    } else if (auto invalid = validate_launch(resolved.launch, limits)) {
        c.error = describe(*invalid);
    } else if (const Outcome<void> too_big = check_launch_caps(resolved.workload, resolved.launch); !too_big.done()) {
        c.error = too_big.error;
    } else {
        c.value = resolved;
    }
    return c;
}

}  // namespace threadmap
