// Session files; see session_file.hpp.
#include "app/launch/session_file.hpp"

#include <nlohmann/json.hpp>

#include "app/launch/centre_view.hpp"
#include "viz/color/color_mode.hpp"
#include "app/launch/input_file.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

namespace {

constexpr uint64_t kMaxSessionBytes = 4u << 20;  // a kernel's text (1 MiB at most) and its launch

std::string dim_text(const Dim3& d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

// A value as the command line would have typed it: text, a whole number, or (block, grid,
// shared_block) a list of whole numbers.
std::string option_text(const nlohmann::json& v, const std::string& field) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
    if (v.is_array()) {
        std::string text;
        for (const auto& x : v) {
            if (!x.is_number_unsigned()) throw std::runtime_error(field + ": a list of whole numbers");
            text += (text.empty() ? "" : ",") + std::to_string(x.get<uint64_t>());
        }
        return text;
    }
    throw std::runtime_error(field + ": text or a whole number");
}

LaunchOptions read_launch(const nlohmann::json& j, const std::string& name) {
    LaunchOptions o;
    if (!j.is_object()) throw std::runtime_error("launch must be an object");
    const std::map<std::string, std::string*> text_fields = {
        {"preset", &o.preset}, {"kernel", &o.kernel},
        {"n", &o.n},           {"rows", &o.rows},
        {"cols", &o.cols},     {"inner", &o.inner},
        {"block", &o.block},   {"grid", &o.grid},
        {"array", &o.array},   {"access", &o.access},
        {"phase", &o.phase},   {"shared_block", &o.shared_block},
        {"entry", &o.entry},   {"dynamic_shared", &o.dynamic_shared}};
    for (const auto& [key, value] : j.items()) {
        const std::string field = "launch." + key;
        if (key == "params") {
            if (!value.is_object()) throw std::runtime_error(field + " must be an object");
            for (const auto& [param, v] : value.items()) o.params[param] = option_text(v, field + "." + param);
        } else if (key == "binds") {
            if (!value.is_array()) throw std::runtime_error(field + " must be a list of NAME=... texts");
            for (const auto& b : value) {
                if (!b.is_string()) throw std::runtime_error(field + " must be a list of NAME=... texts");
                o.binds.push_back(b.get<std::string>());
            }
        } else if (key == "source_text") {
            if (!value.is_string() || value.get<std::string>().empty())
                throw std::runtime_error(field + " must be the kernel's CUDA text");
            o.source_text = value.get<std::string>();
            o.source = name;  // Clang's messages name the session
        } else if (const auto f = text_fields.find(key); f != text_fields.end()) {
            *f->second = option_text(value, field);
        } else {
            throw std::runtime_error(field + ": not a field of a session's launch");
        }
    }
    // As the command line: a learner's text gives the kernel, bound by its bindings.
    if (!o.source_text.empty() && (!o.preset.empty() || !o.kernel.empty() || !o.n.empty() || !o.rows.empty() ||
                                   !o.cols.empty() || !o.inner.empty() || !o.params.empty()))
        throw std::runtime_error("launch.source_text gives the kernel: no preset, kernel, shape or params with it");
    if (o.source_text.empty() && o.preset.empty() && (!o.binds.empty() || !o.entry.empty()))
        throw std::runtime_error("launch.binds and entry go with a source_text or a lesson's own kernel");
    return o;
}

}  // namespace

Outcome<Session> parse_session(const std::string& json_text, const std::string& name) {
    try {
        const nlohmann::json j = nlohmann::json::parse(json_text);
        // Exactly the number 1 (not 1.5, true or "1", which json's value() would read as 1 or throw on).
        const auto version = j.is_object() ? j.find("threadmap_session") : j.end();
        if (!j.is_object() || version == j.end() || !version->is_number_integer() || *version != 1)
            return {std::nullopt, name + ": not a threadmap session (no \"threadmap_session\": 1)"};
        Session s;
        for (const auto& [key, value] : j.items())
            if (key != "threadmap_session" && key != "launch" && key != "view")
                return {std::nullopt, name + ": " + key + ": not a field of a session"};
        if (!j.contains("launch")) return {std::nullopt, name + ": launch is missing"};
        s.launch = read_launch(j.at("launch"), name);
        if (j.contains("view")) {
            const auto& v = j.at("view");
            if (!v.is_object()) return {std::nullopt, name + ": view must be an object"};
            for (const auto& [key, value] : v.items()) {
                if (key != "color" && key != "tab") return {std::nullopt, name + ": view." + key + ": not a field"};
                if (!value.is_string()) return {std::nullopt, name + ": view." + key + " must be text"};
            }
            s.color = v.value("color", std::string());
            s.tab = v.value("tab", std::string());
            if (!s.tab.empty() && !centre_view_named(s.tab))
                return {std::nullopt, name + ": view.tab: " + centre_view_problem(s.tab)};
            if (!s.color.empty() && !parse_color_mode(s.color))
                return {std::nullopt,
                        name + ": view.color: '" + s.color + "' is not a colour mode (" + color_mode_names() + ")"};
        }
        return {std::move(s), {}};
    } catch (const nlohmann::json::exception& e) {
        return {std::nullopt, name + ": malformed session: " + e.what()};
    } catch (const std::runtime_error& e) {
        return {std::nullopt, name + ": " + e.what()};
    }
}

Outcome<Session> read_session(const std::string& path) {
    const auto text = read_input_file(path, kMaxSessionBytes, "session file");
    if (!text.value) return failure_of(text);
    return parse_session(*text.value, path);
}

Outcome<void> take_session_launch(LaunchOptions& launch, const Session& session, const std::string& name) {
    if (any_launch_option(launch)) return {name + ": a session file gives the launch: no other launch options"};
    const std::string backend = launch.backend;
    launch = session.launch;
    launch.backend = backend;
    return done();
}

Outcome<std::string> session_json(const Session& s) {
    const LaunchOptions& o = s.launch;
    nlohmann::json launch = nlohmann::json::object();
    const std::pair<const char*, const std::string*> fields[] = {
        {"preset", &o.preset}, {"kernel", &o.kernel}, {"n", &o.n},         {"rows", &o.rows},
        {"cols", &o.cols},     {"inner", &o.inner},   {"block", &o.block}, {"grid", &o.grid},
        {"array", &o.array},   {"access", &o.access}, {"phase", &o.phase}, {"shared_block", &o.shared_block},
        {"entry", &o.entry}};
    for (const auto& [key, value] : fields)
        if (!value->empty()) launch[key] = *value;
    if (!o.params.empty()) launch["params"] = o.params;
    if (!o.source_text.empty()) {
        launch["source_text"] = o.source_text;
        launch["binds"] = o.binds;
        if (!o.dynamic_shared.empty() && o.dynamic_shared != "0") launch["dynamic_shared"] = o.dynamic_shared;
    }
    nlohmann::json j = {{"threadmap_session", 1}, {"launch", launch}};
    if (!s.color.empty()) j["view"]["color"] = s.color;
    if (!s.tab.empty()) j["view"]["tab"] = s.tab;
    try {
        return {j.dump(2) + "\n", {}};
    } catch (const nlohmann::json::exception&) {  // text that is not UTF-8: JSON cannot hold it
        return {std::nullopt, "the kernel's text is not UTF-8: save it as UTF-8 first"};
    }
}

LaunchOptions options_of(const ResolvedLaunch& r) {
    LaunchOptions o;
    o.preset = r.preset;
    o.block = dim_text(r.launch.block);
    o.grid = dim_text(r.launch.grid);
    const bool own_source = r.model && r.model->owner;  // a learner's or a lesson's own text
    if (!own_source) {
        // The lesson's launch as its preset gives it: what is unchanged is left to the preset.
        std::optional<ResolvedLaunch> lesson;
        if (!r.preset.empty()) {
            LaunchOptions p;
            p.preset = r.preset;
            if (auto resolved = resolve_launch(p); resolved.value) lesson = std::move(*resolved.value);
        }
        const auto kernel_of = [](const ResolvedLaunch& resolved) {
            return resolved.model ? *resolved.model : tutorial_model_kernel(resolved.workload, false);
        };
        const ModelKernel m = kernel_of(r);
        const bool same_kernel = lesson && lesson->kernel_name() == r.kernel_name();
        if (!same_kernel) o.kernel = r.kernel_name();
        const std::optional<ModelKernel> given = same_kernel ? std::optional(kernel_of(*lesson)) : std::nullopt;
        for (size_t i = 0; i < m.spec->params.size() && i < m.params.size(); ++i) {
            const ParamSpec& p = m.spec->params[i];
            const std::string& name = p.name;
            const bool lessons = given && i < given->params.size() && given->params[i] == m.params[i];
            if (p.follows_given_shape) {
                // Opened again, it follows its parameter (or is the lesson's): written when it would not.
                if (m.params[i] == m.params[p.default_from] && (lessons || !given)) continue;
            } else if (lessons) {
                continue;
            }
            const std::string value = std::to_string(m.params[i]);
            std::string* field = name == "n"       ? &o.n
                                 : name == "rows"  ? &o.rows
                                 : name == "cols"  ? &o.cols
                                 : name == "inner" ? &o.inner
                                                   : nullptr;
            if (field)
                *field = value;
            else
                o.params[name] = value;
        }
    }
    if (r.model) {  // the mapped array, as --array, --access, --phase and --shared-block give it
        o.array = r.mapped_array();
        o.access = r.model->reads ? "read" : "write";
        if (r.model->phase != ModelKernel::kAllPhases) o.phase = std::to_string(r.model->phase);
        if (r.model->shared()) o.shared_block = dim_text(r.model->shared_block);
    }
    return o;
}

}  // namespace threadmap
