// Model launches from the options; see model_launch.hpp.
#include "app/launch/model_launch.hpp"

#include "kernels/builtin/registry.hpp"
#include "app/launch/lessons.hpp"

namespace threadmap {

Outcome<void> missing_phase(uint32_t phase, uint32_t phases) {
    if (phase == ModelLaunch::kAllPhases || phase < phases) return done();
    const uint32_t barriers = phases - 1;
    return failed("--phase " + std::to_string(phase) + ": this launch has phases 0 to " + std::to_string(barriers) +
                  " (its longest-running block passes " + std::to_string(barriers) +
                  (barriers == 1 ? " barrier" : " barriers") + "), so phase " + std::to_string(phase) +
                  " has no accesses");
}

Outcome<void> phase_not_applicable(const LaunchOptions& options, const char* command, const char* what) {
    if (options.phase.empty()) return done();
    return failed(std::string(command) + " reports " + what + " of every phase; --phase is for map and render");
}

ModelLaunch model_launch_for(const ResolvedLaunch& resolved) {
    ModelLaunch model_launch;
    model_launch.launch = resolved.launch;
    if (resolved.model) {
        model_launch.spec = resolved.model->spec;
        model_launch.keep = resolved.model->owner;
        model_launch.params = resolved.model->params;
        model_launch.phase = resolved.model->phase;
        // The map's records: the mapped array's (a lesson's comparison of another array of the
        // kernel adds its own, build_picture).
        model_launch.keep_records = uint64_t(1) << resolved.model->array;
        const Dim3& b = resolved.model->shared_block;
        if (resolved.model->shared())
            model_launch.shared_block =
                b.x + uint64_t(resolved.launch.grid.x) * (b.y + uint64_t(resolved.launch.grid.y) * b.z);
        return model_launch;
    }
    const Lesson* lesson = resolved.preset.empty() ? nullptr : find_lesson(resolved.preset);
    const ModelKernel k = tutorial_model_kernel(resolved.workload, lesson && lesson->store_in_loop);
    model_launch.spec = k.spec;
    model_launch.params = k.params;
    return model_launch;
}

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& o) {
    const auto r = resolve_launch(o);
    if (!r.value) return failure_of(r);
    return {model_launch_for(*r.value), {}};
}

}  // namespace threadmap
