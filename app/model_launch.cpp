// Model launches from the options; see model_launch.hpp.
#include "model_launch.hpp"

#include "builtin/registry.hpp"
#include "lessons.hpp"

namespace threadmap {

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
    if (!r.value) return {std::nullopt, r.error};
    return {model_launch_for(*r.value), {}};
}

}  // namespace threadmap
