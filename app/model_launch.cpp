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
        m.params = r.model->params;
        return m;
    }
    const Workload& w = r.workload;
    const Lesson* lesson = r.preset.empty() ? nullptr : find_lesson(r.preset);
    std::string name(kernel_name(w.kernel));
    if (lesson && lesson->store_in_loop && w.kernel == KernelKind::Matmul) name = "matmul-store-in-loop";
    m.spec = find_builtin_kernel(name);
    m.params = is_matrix(w.kernel) ? Params{w.rows, w.cols, w.inner, w.a_rows, w.b_cols} : Params{w.n};
    return m;
}

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& o) {
    const auto r = resolve_launch(o);
    if (!r.value) return {std::nullopt, r.error};
    return {model_launch_for(*r.value), {}};
}

}  // namespace threadmap
