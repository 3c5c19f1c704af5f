// Model launches from the options; see model_launch.hpp.
#include "model_launch.hpp"

#include <CLI/CLI.hpp>

#include "builtin/registry.hpp"
#include "lessons.hpp"

namespace threadmap {

ModelLaunch model_launch_for(const ResolvedLaunch& r) {
    const Workload& w = r.workload;
    const Lesson* lesson = r.preset.empty() ? nullptr : find_lesson(r.preset);
    std::string name(kernel_name(w.kernel));
    if (lesson && lesson->store_in_loop && w.kernel == KernelKind::Matmul) name = "matmul-store-in-loop";
    ModelLaunch m;
    m.spec = find_builtin_kernel(name);
    m.params = is_matrix(w.kernel) ? Params{w.rows, w.cols, w.inner, w.a_rows, w.b_cols} : Params{w.n};
    m.launch = r.launch;
    return m;
}

namespace {

// Parameters the launch options already carry, and the lessons' matmul shapes (a_rows, b_cols).
bool launch_option_param(const std::string& name) {
    return name == "n" || name == "rows" || name == "cols" || name == "inner" || name == "a_rows" || name == "b_cols";
}

}  // namespace

bool ModelParamTexts::any() const {
    for (const auto& [name, text] : texts)
        if (!text.empty()) return true;
    return false;
}

void add_model_param_options(CLI::App& cmd, ModelParamTexts& params) {
    for (const KernelSpec* k : builtin_kernels())
        for (const ParamSpec& p : k->params) {
            if (launch_option_param(p.name) || params.texts.count(p.name)) continue;
            std::string kernels;
            for (const KernelSpec* other : builtin_kernels())
                if (other->param_index(p.name) < other->params.size())
                    kernels += (kernels.empty() ? "" : ", ") + other->name;
            cmd.add_option("--" + p.name, params.texts[p.name], p.help + " (" + kernels + ")");
        }
}

void add_model_launch_options(CLI::App& cmd, LaunchOptions& o, ModelParamTexts& params) {
    add_launch_options(cmd, o);
    std::string names;
    for (const KernelSpec* k : builtin_kernels()) names += (names.empty() ? "" : " | ") + k->name;
    cmd.get_option("--kernel")->description(names);
    cmd.get_option("--n")->description("n, for the kernels that take it (threadmap kernels lists them)");
    cmd.get_option("--rows")->description("Rows of C (matmul kernels) or of in (transposes)");
    cmd.get_option("--cols")->description("Columns of C (matmul kernels) or of in (transposes)");
    add_model_param_options(cmd, params);
}

Outcome<ModelLaunch> resolve_model_launch(const LaunchOptions& o, const ModelParamTexts& params) {
    const KernelSpec* spec = o.kernel.empty() ? nullptr : find_builtin_kernel(o.kernel);
    if (o.kernel.empty() || parse_kernel(o.kernel)) {  // a lesson's kernel, or one of the tutorial's
        for (const auto& [name, text] : params.texts)
            if (!text.empty())
                return {std::nullopt, "--" + name + " is not a parameter of " +
                                          (o.kernel.empty() ? std::string("the lesson's kernel") : o.kernel)};
        const auto r = resolve_launch(o);
        if (!r.value) return {std::nullopt, r.error};
        return {model_launch_for(*r.value), {}};
    }
    if (!spec) {
        std::string names;
        for (const KernelSpec* k : builtin_kernels()) names += (names.empty() ? "" : ", ") + k->name;
        return {std::nullopt, "unknown kernel '" + o.kernel + "'; choose " + names};
    }
    if (!o.preset.empty())
        return {std::nullopt, "--kernel " + o.kernel + " has no lesson to start from; give its shape without --preset"};
    std::vector<std::pair<std::string, const std::string*>> given = {
        {"n", &o.n}, {"rows", &o.rows}, {"cols", &o.cols}, {"inner", &o.inner}};
    for (const auto& [name, text] : params.texts) given.emplace_back(name, &text);
    ModelLaunch m;
    m.spec = spec;
    for (const auto& [name, text] : given) {
        if (text->empty() || spec->param_index(name) < spec->params.size()) continue;
        std::string flags;
        for (const ParamSpec& p : spec->params) flags += (flags.empty() ? "--" : ", --") + p.name;
        return {std::nullopt,
                std::string("--") + name + " is not a parameter of " + spec->name + " (it takes " + flags + ")"};
    }
    for (const ParamSpec& p : spec->params) {
        const std::string* text = nullptr;
        for (const auto& [name, t] : given)
            if (p.name == name && !t->empty()) text = t;
        if (!text) {
            m.params.push_back(p.default_from < m.params.size() ? m.params[p.default_from] : p.default_value);
            continue;
        }
        const auto v = parse_count(*text, "--" + p.name);
        if (!v.value) return {std::nullopt, v.error};
        m.params.push_back(*v.value);
    }
    m.launch.block = spec->default_block;
    if (!o.block.empty()) {
        const auto b = parse_dim3(o.block, "--block");
        if (!b.value) return {std::nullopt, b.error};
        m.launch.block = *b.value;
    }
    m.launch.grid = spec->covering_grid(m.params, m.launch.block);
    if (!o.grid.empty()) {
        const auto g = parse_dim3(o.grid, "--grid");
        if (!g.value) return {std::nullopt, g.error};
        m.launch.grid = *g.value;
    }
    return {std::move(m), {}};
}

}  // namespace threadmap
