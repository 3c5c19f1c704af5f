// Lesson parsing and the embedded lesson list; see lessons.hpp.
#include "app/launch/lessons.hpp"

#include "kernels/builtin/registry.hpp"
#include "app/launch/catalog.hpp"
#include "app/launch/centre_view.hpp"
#include "app/launch/device_profiles.hpp"
#include "viz/color/color_mode.hpp"
#include "app/launch/json_numbers.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace threadmap {

extern const EmbeddedFile kEmbeddedLessons[];  // assets/lessons/*.json, see app/launch/CMakeLists.txt
extern const int kEmbeddedLessonsCount;

namespace {

// A field every lesson has; its absence named as such, not as a JSON library's error.
const nlohmann::json& required(const nlohmann::json& j, const char* key) {
    if (!j.contains(key)) throw std::runtime_error(std::string("'") + key + "' is missing");
    return j.at(key);
}

Dim3 parse_dim3(const nlohmann::json& j, const std::string& key) {
    const auto& v = j.at(key);
    if (!v.is_array() || v.empty() || v.size() > 3)
        throw std::runtime_error("'" + key + "' must be a list of 1 to 3 positive integers");
    uint32_t c[3] = {1, 1, 1};
    for (size_t i = 0; i < v.size(); ++i) c[i] = json_number<uint32_t>(v[i], key);
    return {c[0], c[1], c[2]};
}

// A lesson's own kernel: "source" (its lines), "entry", "bind", "expect", "array", "access".
LessonKernelText read_own_kernel(const nlohmann::json& j) {
    if (j.contains("kernel")) throw std::runtime_error("a lesson has a kernel or a source, not both");
    LessonKernelText k;
    for (const auto& line : j.at("source")) k.text += line.get<std::string>() + "\n";
    if (k.text.empty()) throw std::runtime_error("source: a list of the kernel's lines");
    k.entry = j.value("entry", std::string());
    k.binds = j.value("bind", std::vector<std::string>());
    k.expect = j.value("expect", std::string());
    k.array = j.value("array", std::string());
    k.access = j.value("access", std::string());
    if (!k.access.empty() && k.access != "write" && k.access != "read")
        throw std::runtime_error("access: write or read, not '" + k.access + "'");
    return k;
}

// "view": how the lesson opens; every field checked here, so a bad value names its field.
LessonView read_view(const nlohmann::json& j) {
    LessonView v;
    if (!j.contains("view")) return v;
    const nlohmann::json& view = j.at("view");
    if (!view.is_object()) throw std::runtime_error("view must be an object");
    for (const auto& [key, value] : view.items())
        if (key != "color" && key != "tab" && key != "array" && key != "access" && key != "phase" &&
            key != "shared_block" && key != "pin" && key != "run")
            throw std::runtime_error("view." + key +
                                     ": not a field of a lesson's view (color, tab, array, access, "
                                     "phase, shared_block, pin, run)");
    v.color = view.value("color", std::string());
    if (!v.color.empty() && !parse_color_mode(v.color))
        throw std::runtime_error("view.color: '" + v.color + "' is not a colour mode (" + color_mode_names() + ")");
    v.tab = view.value("tab", std::string());
    if (!v.tab.empty() && !centre_view_named(v.tab))
        throw std::runtime_error("view.tab: " + centre_view_problem(v.tab));
    v.array = view.value("array", std::string());
    v.access = view.value("access", std::string());
    if (!v.access.empty() && v.access != "write" && v.access != "read")
        throw std::runtime_error("view.access: write or read, not '" + v.access + "'");
    if (view.contains("phase")) v.phase = std::to_string(json_number<uint32_t>(view.at("phase"), "view.phase"));
    if (view.contains("shared_block")) {
        const Dim3 b = parse_dim3(view, "shared_block");
        const size_t given = view.at("shared_block").size();
        v.shared_block = std::to_string(b.x) + (given > 1 ? "," + std::to_string(b.y) : "") +
                         (given > 2 ? "," + std::to_string(b.z) : "");
    }
    if (view.contains("pin")) {
        const auto& pin = view.at("pin");
        if (!pin.is_array() || pin.empty() || pin.size() > 2)
            throw std::runtime_error("view.pin: [index] or [row, column]");
        for (const auto& i : pin) v.pin.push_back(json_number<uint64_t>(i, "view.pin"));
    }
    v.run = view.value("run", false);
    if (v.run && !j.contains("timing")) throw std::runtime_error("view.run: only a timing lesson runs on open");
    return v;
}

// A lesson's kernel of the registry ("kernel", its parameters or shape) into lesson.workload and
// lesson.model, at the lesson's block and grid.
void read_registry_kernel(const nlohmann::json& j, Lesson& lesson) {
    const std::string kernel_text = j.at("kernel").get<std::string>();
    const auto kernel = parse_kernel(kernel_text);
    const KernelSpec* spec = kernel ? nullptr : find_builtin_kernel(kernel_text);
    if (!kernel && !spec) throw std::runtime_error("unknown kernel '" + kernel_text + "'");
    if (spec) {
        ModelKernel k = *default_model_launch(*spec).model;
        // A field of parameters by name over `into`.
        const auto read_params = [&](const char* field, Params& into) {
            const nlohmann::json params = j.value(field, nlohmann::json::object());
            if (!params.is_object()) throw std::runtime_error(std::string(field) + " must be an object of name: value");
            for (const auto& [name, value] : params.items()) {
                const size_t i = spec->param_index(name);
                const std::string what = std::string(field) + "." + name;
                if (i == spec->params.size())
                    throw std::runtime_error(std::string(field) + ": " + spec->name + " has no parameter '" + name +
                                             "'");
                into[i] = json_number<uint64_t>(value, what);
                if (into[i] < spec->params[i].min || into[i] > spec->params[i].max)
                    throw std::runtime_error(what + " is out of its range");
            }
        };
        read_params("params", k.params);
        if (j.contains("compare_params")) {
            lesson.compare_params = k.params;
            read_params("compare_params", *lesson.compare_params);
        }
        if (j.contains("array")) {
            k.array = spec->array_index(j.at("array").get<std::string>());
            if (k.array == spec->arrays.size() || spec->arrays[k.array].space != MemorySpace::Global)
                throw std::runtime_error("array: " + spec->name + " has no global array '" +
                                         j.at("array").get<std::string>() + "'");
        }
        LaunchConfig launch;
        launch.block = lesson.block.value_or(spec->default_block);
        launch.grid = lesson.grid.value_or(spec->covering_grid(k.params, launch.block));
        lesson.workload = model_workload(k, launch);
        lesson.model = std::move(k);
    } else if (is_matrix(kernel)) {
        lesson.workload =
            matmul_workload(kernel, json_number<uint64_t>(j.at("rows"), "rows"),
                            json_number<uint64_t>(j.at("cols"), "cols"), json_number<uint64_t>(j.at("inner"), "inner"));
        if (j.contains("a_rows")) lesson.workload.a_rows = json_number<uint64_t>(j.at("a_rows"), "a_rows");
        if (j.contains("b_cols")) lesson.workload.b_cols = json_number<uint64_t>(j.at("b_cols"), "b_cols");
    } else {
        lesson.workload = array_workload(kernel, json_number<uint64_t>(j.at("n"), "n"));
    }
}

LessonTiming read_timing(const nlohmann::json& t) {
    LessonTiming lt;
    lt.source = t.value("source", lt.source);
    lt.profile = t.value("profile", lt.profile);
    lt.pinned = t.value("pinned", false);
    lt.resident = t.value("resident", false);
    lt.first_launch = t.value("first_launch", false);
    if (t.contains("repeats")) lt.repeats = json_number<int>(t.at("repeats"), "timing.repeats");
    if (lt.repeats < 1 || lt.repeats > 10000) throw std::runtime_error("timing.repeats must be 1 to 10000");
    if (lt.source != "measured" && lt.source != "modeled")
        throw std::runtime_error("timing.source must be measured or modeled");
    return lt;
}

TimedProgram read_program(const nlohmann::json& p) {
    const auto language = parse_language(p.value("language", "cuda"));
    const auto element = parse_element(p.value("element", "float32"));
    const auto transfers = parse_transfers(p.value("transfers", "explicit"));
    if (!language || !element || !transfers)
        throw std::runtime_error(
            "program: language cuda|numba, element float32|float64, transfers explicit|host-arrays");
    const TimedProgram program{*language, *element, *transfers};
    if (program.language == HostLanguage::CudaCpp && program.transfers == Transfers::HostArrays)
        throw std::runtime_error("program: host arrays are numba's; CUDA C++ copies explicitly");
    return program;
}

// What the lesson sets its kernel against: another kernel with its parameters, another array.
void read_comparison(const nlohmann::json& j, Lesson& lesson) {
    lesson.compare_kernel = j.value("compare_kernel", std::string());
    if (!lesson.compare_kernel.empty()) {
        const KernelSpec* other = find_builtin_kernel(lesson.compare_kernel);
        if (!lesson.model || !other || other->param_names() != lesson.model->spec->param_names())
            throw std::runtime_error("compare_kernel: '" + lesson.compare_kernel +
                                     "' is not a kernel with the lesson's kernel's parameters");
    }
    lesson.compare_array = j.value("compare_array", std::string());
    if (!lesson.compare_array.empty() &&
        (!lesson.model || lesson.model->spec->array_index(lesson.compare_array) == lesson.model->spec->arrays.size()))
        throw std::runtime_error("compare_array: '" + lesson.compare_array +
                                 "' is not an array of the lesson's kernel");
}

Lesson read_lesson(const std::string& text) {
    try {
        const auto j = nlohmann::json::parse(text);
        Lesson lesson;
        lesson.name = required(j, "name").get<std::string>();
        lesson.title = required(j, "title").get<std::string>();
        lesson.group = required(j, "group").get<std::string>();
        if (std::find(lesson_groups().begin(), lesson_groups().end(), lesson.group) == lesson_groups().end())
            throw std::runtime_error("group: '" + lesson.group + "' is not a group of the curriculum");
        lesson.order = json_number<int>(required(j, "order"), "order");
        if (lesson.order < 1) throw std::runtime_error("order: 1 or more");
        lesson.summary = j.value("summary", lesson.title);
        lesson.view = read_view(j);
        lesson.explanation = required(j, "explanation").get<std::string>();
        lesson.look_for = required(j, "look_for").get<std::string>();
        if (j.contains("block")) lesson.block = parse_dim3(j, "block");
        if (j.contains("grid")) lesson.grid = parse_dim3(j, "grid");
        if (j.contains("source"))
            lesson.own_kernel = read_own_kernel(j);
        else
            read_registry_kernel(j, lesson);
        if (j.contains("timing")) lesson.timing = read_timing(j.at("timing"));
        if (j.contains("program")) lesson.program = read_program(j.at("program"));
        if (j.contains("occupancy")) {
            lesson.occupancy_profile = j.at("occupancy").at("profile").get<std::string>();
            if (!find_device_profile(lesson.occupancy_profile))
                throw std::runtime_error("occupancy.profile: no device profile '" + lesson.occupancy_profile + "'");
        }
        lesson.store_in_loop = j.value("store_in_loop", false);
        lesson.memory = j.value("memory", false);
        read_comparison(j, lesson);
        for (const auto& s : j.value("sources", nlohmann::json::array())) {
            LessonSource src{s.at("figures").get<std::vector<std::string>>(), s.at("source").get<std::string>()};
            if (src.source.empty()) throw std::runtime_error("a source without its text");
            lesson.sources.push_back(std::move(src));
        }
        if (lesson.own_kernel && (lesson.timing || !lesson.occupancy_profile.empty()))
            throw std::runtime_error("a lesson with its own source has no timing or occupancy (no compiler figures)");
        if (const Outcome<void> shape = lesson.own_kernel ? done() : check_shape(lesson.workload); !shape.done())
            throw std::runtime_error(shape.error);
        return lesson;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("malformed lesson: ") + e.what());
    }
}

}  // namespace

// The reading above throws where it finds a problem (the deepest field knows its name); its
// message leaves here as a failure.
Outcome<Lesson> parse_lesson(const std::string& text) {
    try {
        return {read_lesson(text), {}};
    } catch (const std::exception& e) {
        return {std::nullopt, e.what()};
    }
}

namespace {

const Catalog<Lesson>& lesson_catalog() {
    static const Catalog<Lesson> all(kEmbeddedLessons, kEmbeddedLessonsCount, parse_lesson,
                                     [](const Lesson& a, const Lesson& b) { return a.order < b.order; });
    return all;
}

}  // namespace

std::string lesson_tab(const Lesson& lesson) {
    if (!lesson.view.tab.empty()) return lesson.view.tab;
    if (lesson.timing) return "timing";
    if (!lesson.occupancy_profile.empty()) return "occupancy";
    if (lesson.memory) return "memory";
    return "map";
}

const std::vector<std::string>& lesson_groups() {
    static const std::vector<std::string> groups = {"First kernels",  "2D launches and matrices",
                                                    "Memory access",  "Shared memory and barriers",
                                                    "Races and bugs", "Occupancy",
                                                    "Timing"};
    return groups;
}

const std::vector<Lesson>& lessons() { return lesson_catalog().items(); }
const Lesson* find_lesson(const std::string& name) { return lesson_catalog().find(name); }
std::string lesson_names() { return lesson_catalog().names(); }

LessonRun lesson_run(const Lesson* lesson) {
    LessonRun run;
    if (!lesson) return run;
    run.program = lesson->program;
    if (lesson->timing) {
        run.pinned = lesson->timing->pinned;
        run.resident = lesson->timing->resident;
        run.repeats = lesson->timing->repeats;
        run.profile = lesson->timing->profile;
        run.first_launch = lesson->timing->first_launch;
    }
    return run;
}

Comparison lesson_comparison(const ResolvedLaunch& launch) {
    const Lesson* lesson = launch.lesson.empty() ? nullptr : find_lesson(launch.lesson);
    if (!lesson || !lesson->model || !launch.model || launch.model->spec != lesson->model->spec) return {};
    if (!lesson->compare_array.empty() && launch.mapped_array() == lesson->compare_array) return {};
    return {lesson->compare_kernel, lesson->compare_array};
}

}  // namespace threadmap
