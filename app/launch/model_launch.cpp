// Model launches from the options; see model_launch.hpp.
#include "app/launch/model_launch.hpp"

#include "kernels/builtin/registry.hpp"
#include "app/launch/lessons.hpp"

namespace threadmap {

std::optional<std::string> missing_phase(uint32_t phase, uint32_t phases) {
    if (phase == ModelLaunch::kAllPhases || phase < phases) return std::nullopt;
    const uint32_t barriers = phases - 1;
    return "--phase " + std::to_string(phase) + ": this launch has phases 0 to " + std::to_string(barriers) +
           " (its longest-running block passes " + std::to_string(barriers) +
           (barriers == 1 ? " barrier" : " barriers") + "), so phase " + std::to_string(phase) + " has no accesses";
}

std::optional<std::string> phase_not_applicable(const LaunchOptions& options, const char* command, const char* what) {
    if (options.phase.empty()) return std::nullopt;
    return std::string(command) + " reports " + what + " of every phase; --phase is for map and render";
}

ModelLaunch model_launch_for(const ResolvedLaunch& r) {
    ModelLaunch m;
    m.launch = r.launch;
    if (r.model) {
        m.spec = r.model->spec;
        m.keep = r.model->owner;
        m.params = r.model->params;
        m.phase = r.model->phase;
        const Dim3& b = r.model->shared_block;
        if (r.model->shared())
            m.shared_block = b.x + uint64_t(r.launch.grid.x) * (b.y + uint64_t(r.launch.grid.y) * b.z);
        return m;
    }
    const Lesson* lesson = r.preset.empty() ? nullptr : find_lesson(r.preset);
    const ModelKernel k = tutorial_model_kernel(r.workload, lesson && lesson->store_in_loop);
    m.spec = k.spec;
    m.params = k.params;
    return m;
}

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& o) {
    const auto r = resolve_launch(o);
    if (!r.value) return failure_of(r);
    return {model_launch_for(*r.value), {}};
}

}  // namespace threadmap
