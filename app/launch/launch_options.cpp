// Launch options; see launch_options.hpp.
#include "app/launch/launch_options.hpp"

#include <algorithm>
#include <vector>

#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/launch/lessons.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

std::string all_kernel_names(const char* separator) {
    std::string names;
    for (const KernelSpec* spec : builtin_kernels()) names += (names.empty() ? "" : separator) + spec->name;
    return names;
}

bool LaunchOptions::any_param() const {
    for (const auto& [name, text] : params)
        if (!text.empty()) return true;
    return false;
}

const KernelSpec& ResolvedLaunch::spec() const { return model ? *model->spec : spec_of(*workload.kernel); }

std::string ResolvedLaunch::kernel_name() const {
    return model ? model->spec->name : std::string(threadmap::kernel_name(workload.kernel));
}

std::string ResolvedLaunch::mapped_array() const {
    if (model) return model->spec->arrays[model->array].name;
    return is_matrix(workload.kernel) ? "C" : "a";
}

std::string ResolvedLaunch::array_caption() const {
    std::string s = mapped_array();
    if (model && model->shared()) s += " of block " + to_string(model->shared_block);
    if (model && model->phase != ModelKernel::kAllPhases) s += ", phase " + std::to_string(model->phase);
    return s;
}

ModelKernel tutorial_model_kernel(const Workload& workload, bool store_in_loop) {
    ModelKernel k;
    const bool in_loop = store_in_loop && workload.kernel == &MatmulBody::kernel;
    k.spec = in_loop ? find_builtin_kernel("matmul-store-in-loop") : &spec_of(*workload.kernel);
    k.params = is_matrix(workload.kernel)
                   ? Params{workload.rows, workload.cols, workload.inner, workload.a_rows, workload.b_cols}
                   : Params{workload.n};
    k.array = k.spec->mapped_array();
    return k;
}

Workload fast_workload(const ModelKernel& k) {
    if (!is_matrix(k.spec->fast)) return array_workload(k.spec->fast, k.params[0]);
    Workload w = matmul_workload(k.spec->fast, k.params[0], k.params[1], k.params[2]);
    w.a_rows = k.params[3];
    w.b_cols = k.params[4];
    return w;
}

Workload model_workload(const ModelKernel& k, const LaunchConfig& launch) {
    return model_array_workload(k.spec->arrays[k.array].shape(k.params, launch));
}

ResolvedLaunch default_model_launch(const KernelSpec& spec) {
    ResolvedLaunch resolved;
    ModelKernel k;
    k.spec = &spec;
    k.array = spec.mapped_array();
    k.params = spec.default_params();
    resolved.launch.block = spec.default_block;
    resolved.launch.grid = spec.covering_grid(k.params, resolved.launch.block);
    resolved.workload = model_workload(k, resolved.launch);
    resolved.model = std::move(k);
    return resolved;
}

Outcome<uint64_t> parse_count(const std::string& text, const std::string& option) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return {std::nullopt, option + " expects a whole number, got '" + text + "'"};
    uint64_t value = 0;
    for (char c : text) {
        const uint64_t digit = uint64_t(c - '0');
        if (value > (UINT64_MAX - digit) / 10) return {std::nullopt, option + " value '" + text + "' is too large"};
        value = value * 10 + digit;
    }
    return {value, {}};
}

Outcome<PixelSize> parse_size(const std::string& text, const std::string& option, int min_width, int min_height,
                              int max_side) {
    const size_t x = text.find('x');
    const auto w = parse_count(x == std::string::npos ? "" : text.substr(0, x), option);
    const auto h = parse_count(x == std::string::npos ? "" : text.substr(x + 1), option);
    if (!w.value || !h.value || *w.value < uint64_t(min_width) || *h.value < uint64_t(min_height) ||
        *w.value > uint64_t(max_side) || *h.value > uint64_t(max_side))
        return {std::nullopt, option + " expects WIDTHxHEIGHT between " + std::to_string(min_width) + "x" +
                                  std::to_string(min_height) + " and " + std::to_string(max_side) + "x" +
                                  std::to_string(max_side) + ", got '" + text + "'"};
    return {PixelSize{int(*w.value), int(*h.value)}, {}};
}

Outcome<Dim3> parse_dim3(const std::string& text, const std::string& option) {
    uint32_t parts[3] = {1, 1, 1};
    size_t start = 0;
    for (int i = 0;; ++i) {
        const size_t comma = text.find(',', start);
        const std::string piece = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (i == 3) return {std::nullopt, option + " takes at most three numbers X,Y,Z, got '" + text + "'"};
        const auto v = parse_count(piece, option);
        if (!v.value) return failure_of(v);
        if (*v.value > UINT32_MAX)  // CUDA's dim3 holds unsigned int
            return {std::nullopt, option + " component " + piece + " does not fit in a dim3 (at most 4294967295)"};
        parts[i] = uint32_t(*v.value);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return {Dim3{parts[0], parts[1], parts[2]}, {}};
}

namespace {

// --array, --access and --shared-block applied to a model kernel; why not, when they do not fit.
Outcome<void> choose_mapped_array(ModelKernel& k, const LaunchOptions& o) {
    const KernelSpec& spec = *k.spec;
    if (!o.array.empty()) {
        k.array = spec.array_index(o.array);
        if (k.array == spec.arrays.size()) {
            std::string names;
            for (const ArraySpec& a : spec.arrays) names += (names.empty() ? "" : ", ") + a.name;
            return failed("kernel " + spec.name + " has no array '" + o.array + "' (its arrays: " + names + ")");
        }
    }
    if (!o.access.empty()) k.reads = o.access == "read";
    if (!o.phase.empty()) {
        if (!spec.uses_barriers)
            return failed("--phase: " + spec.name +
                          " has no __syncthreads(): all its accesses are one phase; leave --phase out");
        const auto p = parse_count(o.phase, "--phase");
        if (!p.value) return failed(p.error);
        if (*p.value >= ModelKernel::kAllPhases) return failed(std::string("--phase is too large"));
        k.phase = uint32_t(*p.value);
    }
    if (!o.shared_block.empty()) {
        if (!k.shared())
            return failed("--shared-block goes with --array of a __shared__ array (" + spec.arrays[k.array].name +
                          " is global)");
        const auto b = parse_dim3(o.shared_block, "--shared-block");
        if (!b.value) return failed(b.error);
        k.shared_block = *b.value;
        // A blockIdx: the components not given are 0 (a dim3's are 1).
        const auto commas = std::count(o.shared_block.begin(), o.shared_block.end(), ',');
        if (commas < 2) k.shared_block.z = 0;
        if (commas < 1) k.shared_block.y = 0;
    }
    return done();
}

// The kernel a lesson launches as the kernel model has it: nullopt for a lesson with its own
// kernel source.
std::optional<ModelKernel> lesson_kernel(const Lesson& lesson) {
    if (lesson.model) return lesson.model;
    if (lesson.workload.kernel) return tutorial_model_kernel(lesson.workload, false);
    return std::nullopt;
}

// The parameters typed (--n, --rows, …, and the spec's own flags) over `params`, and those that
// follow them; a message for one the kernel does not take or a value that is not a count.
Outcome<void> take_params(const KernelSpec& spec, Params& params, const LaunchOptions& o, const Lesson* lesson) {
    std::vector<std::pair<std::string, const std::string*>> given = {
        {"n", &o.n}, {"rows", &o.rows}, {"cols", &o.cols}, {"inner", &o.inner}};
    for (const auto& [name, text] : o.params) given.emplace_back(name, &text);
    for (const auto& [name, text] : given) {
        if (text->empty()) continue;
        const size_t i = spec.param_index(name);
        if (i == spec.params.size()) {
            std::string flags;
            for (const ParamSpec& p : spec.params) flags += (flags.empty() ? "--" : ", --") + p.name;
            return failed("--" + name + " is not a parameter of " + spec.name + " (it takes " + flags + ")");
        }
        const auto v = parse_count(*text, "--" + name);
        if (!v.value) return failed(v.error);
        params[i] = *v.value;
    }
    // A parameter that follows another (ParamSpec::follows_given_shape): matmul's A rows follow
    // C's whenever the shape is given, inner follows cols given without a lesson.
    const auto typed = [&](const std::string& param) {
        for (const auto& [name, text] : given)
            if (name == param && !text->empty()) return true;
        return false;
    };
    bool any_typed = false;
    for (const ParamSpec& p : spec.params) any_typed = any_typed || typed(p.name);
    for (size_t i = 0; i < spec.params.size(); ++i) {
        const ParamSpec& p = spec.params[i];
        if (p.default_from >= i || typed(p.name)) continue;
        if (p.follows_given_shape ? any_typed : !lesson && typed(spec.params[p.default_from].name))
            params[i] = params[p.default_from];
    }
    return done();
}

// A launch of a model kernel: the lesson's parameters, block and grid (or the spec's defaults),
// with the options given over them.
ResolveResult resolve_model_kernel(const KernelSpec& spec, const Lesson* lesson, const LaunchOptions& o) {
    ResolvedLaunch out = default_model_launch(spec);
    ModelKernel& k = *out.model;
    std::optional<Dim3> block, grid;
    if (lesson) {
        out.preset = out.lesson = lesson->name;
        if (const std::optional<ModelKernel> given = lesson_kernel(*lesson)) {
            k.params = given->params;  // its kernel's, or (resolve_launch) another's with the same parameters
            if (given->spec == &spec) k = *given;
        }  // else its own kernel: the spec's defaults
        block = lesson->block;
        grid = lesson->grid;
    }
    if (const Outcome<void> problem = take_params(spec, k.params, o, lesson); !problem.done())
        return {std::nullopt, problem.error};
    if (!o.block.empty()) {
        const auto parsed = parse_dim3(o.block, "--block");
        if (!parsed.value) return failure_of(parsed);
        block = parsed.value;
        if (o.grid.empty()) grid.reset();  // a new block gets the grid that covers the problem
    }
    if (!o.grid.empty()) {
        const auto parsed = parse_dim3(o.grid, "--grid");
        if (!parsed.value) return failure_of(parsed);
        grid = parsed.value;
    }
    out.launch.block = block.value_or(spec.default_block);
    out.launch.grid = grid.value_or(spec.covering_grid(k.params, out.launch.block));
    if (lesson && lesson->own_kernel) {  // the array its own kernel's map shows, unless the options say
        LaunchOptions shown;
        shown.array = lesson->own_kernel->array;
        shown.access = lesson->own_kernel->access;
        if (const Outcome<void> problem = choose_mapped_array(k, shown); !problem.done())
            return {std::nullopt, "lesson " + lesson->name + ": " + problem.error};
    }
    if (const Outcome<void> problem = choose_mapped_array(k, o); !problem.done()) return {std::nullopt, problem.error};
    out.workload = model_workload(k, out.launch);
    return {std::move(out), {}};
}

}  // namespace

Outcome<void> apply_lesson_view(ResolvedLaunch& launch, const Lesson& lesson) {
    const LessonView& v = lesson.view;
    if (v.array.empty() && v.access.empty() && v.phase.empty() && v.shared_block.empty()) return done();
    if (!launch.model)
        return failed("lesson " + lesson.name + ": its view maps an array of the kernel model's kernels only");
    LaunchOptions shown;
    shown.array = v.array;
    shown.access = v.access;
    shown.phase = v.phase;
    shown.shared_block = v.shared_block;
    if (const Outcome<void> problem = choose_mapped_array(*launch.model, shown); !problem.done())
        return failed("lesson " + lesson.name + ": view: " + problem.error);
    launch.workload = model_workload(*launch.model, launch.launch);
    return done();
}

Outcome<void> open_on_lesson_view(ResolvedLaunch& launch, const LaunchOptions& given) {
    const Lesson* lesson = given.preset.empty() ? nullptr : find_lesson(given.preset);
    if (!lesson || !given.array.empty() || !given.access.empty() || !given.phase.empty() || !given.shared_block.empty())
        return done();
    // Another kernel at the lesson's shape (--kernel with --preset) has arrays of its own.
    if (const std::optional<ModelKernel> k = lesson_kernel(*lesson); k && k->spec != &launch.spec()) return done();
    return apply_lesson_view(launch, *lesson);
}

bool any_launch_option(const LaunchOptions& l) {
    return !l.preset.empty() || !l.kernel.empty() || !l.n.empty() || !l.rows.empty() || !l.cols.empty() ||
           !l.inner.empty() || !l.block.empty() || !l.grid.empty() || l.any_param() || !l.array.empty() ||
           !l.access.empty() || !l.shared_block.empty() || !l.phase.empty() || !l.source.empty() || !l.entry.empty() ||
           !l.binds.empty() || !l.time_limit.empty() || !l.memory_limit.empty() || !l.dynamic_shared.empty() ||
           !l.expect.empty();
}

// A learner's kernel (--source) or a lesson's own text, compiled and bound.
ResolveResult resolve_source_kernel(const LaunchOptions& o, const Lesson* own_kernel_lesson) {
    ResolveResult r;
    std::string& err = r.error;
    const bool shape =
        !o.kernel.empty() || !o.n.empty() || !o.rows.empty() || !o.cols.empty() || !o.inner.empty() || o.any_param();
    if (!o.source.empty() && (shape || !o.preset.empty()))
        return err =
                   "--source gives the kernel: bind its parameters with --bind (not --preset, --kernel or a "
                   "shape)",
               r;
    if (shape)
        return err = "preset " + o.preset +
                     " has its own kernel source: change its parameters with --bind (not --kernel or a shape)",
               r;
    const auto source = own_kernel_lesson ? load_lesson_kernel(*own_kernel_lesson->own_kernel, o.preset + ".cu", o)
                                          : load_source_kernel(o);
    if (!source.value) return err = source.error, r;
    r = resolve_model_kernel(*source.value->spec, own_kernel_lesson, o);
    if (r.value) {
        r.value->model->owner = source.value->owner;
        r.value->model->expected = source.value->expected;
        r.value->model->warnings = source.value->warnings;
    }
    return r;
}

ResolveResult resolve_launch(const LaunchOptions& o) {
    ResolveResult r;
    std::string& err = r.error;
    const Lesson* own_kernel_lesson = o.preset.empty() ? nullptr : find_lesson(o.preset);
    if (own_kernel_lesson && !own_kernel_lesson->own_kernel) own_kernel_lesson = nullptr;
    if (!o.source.empty() || own_kernel_lesson) return resolve_source_kernel(o, own_kernel_lesson);
    if (!o.entry.empty() || !o.binds.empty() || !o.time_limit.empty() || !o.memory_limit.empty() ||
        !o.dynamic_shared.empty() || !o.expect.empty())
        return err =
                   "--entry, --bind, --dynamic-shared, --time-limit and --expect go with --source (or a lesson with "
                   "its own kernel source)",
               r;
    const bool explicit_kernel = !o.kernel.empty();
    const Lesson* lesson = nullptr;
    if (!o.preset.empty()) {
        lesson = find_lesson(o.preset);
        if (!lesson) {
            err = "unknown preset '" + o.preset + "'; the lessons are: " + lesson_names();
            return r;
        }
    } else if (!explicit_kernel) {
        lesson = find_lesson(kDefaultLesson);
    }

    const KernelSpec* lesson_spec = lesson ? lesson_kernel(*lesson)->spec : nullptr;
    const KernelSpec* spec = explicit_kernel ? find_builtin_kernel(o.kernel) : lesson_spec;
    if (!spec) return err = "unknown kernel '" + o.kernel + "'; choose " + all_kernel_names(", "), r;
    if (lesson && spec != lesson_spec && spec->param_names() != lesson_spec->param_names())
        return err = "--kernel " + o.kernel + " takes other parameters than preset " + lesson->name + "'s kernel " +
                     lesson_spec->name + "; give its shape without --preset",
               r;
    // The tutorial's matmul with its store inside the loop, when another view than the
    // writers of C shows what that does.
    const bool view = !o.array.empty() || !o.access.empty() || !o.shared_block.empty() || !o.phase.empty();
    if (lesson && lesson->store_in_loop && view && spec == lesson_spec)
        spec = tutorial_model_kernel(lesson->workload, true).spec;
    r = resolve_model_kernel(*spec, lesson, o);
    // A kernel with a fast body, seen as its output's writers: the fast body draws the map,
    // unless it cannot run the shape (A with fewer rows than C): then the kernel model does,
    // and finds the reads past A's end.
    if (r.value && spec->fast && !view) {
        const Workload fast = fast_workload(*r.value->model);
        if (check_shape(fast).done()) {
            r.value->workload = fast;
            r.value->model.reset();
        }
    }
    return r;
}

}  // namespace threadmap
