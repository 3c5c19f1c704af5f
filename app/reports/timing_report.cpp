// Timing reports; see timing_report.hpp.
#include "app/reports/timing_report.hpp"
#include "kernels/builtin/registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kernels/core/number_text.hpp"
#include "kernels/core/validation.hpp"
#include "kernels/timing/cpu_reference.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "app/launch/input_file.hpp"
#include "kernels/timing/spec_cost.hpp"
#include "app/launch/timing_sectors.hpp"

namespace threadmap {

namespace {

StageFigures stage(const std::string& name, std::vector<double> s, uint64_t bytes, const std::string& origin) {
    std::sort(s.begin(), s.end());
    return {name, s.front(), s[s.size() / 2], s.back(), s.size(), bytes, origin};
}

nlohmann::json stage_json(const StageFigures& s) {
    return {{"name", s.name},
            {"seconds_min", s.seconds_min},
            {"seconds_median", s.seconds_median},
            {"seconds_max", s.seconds_max},
            {"repeats", s.repeats},
            {"bytes", s.bytes},
            {"origin", s.origin}};
}

// The largest figures a recording may hold: a day per stage, a petabyte, an exaflop.
constexpr double kMaxSeconds = 86400;
constexpr uint64_t kMaxCount = uint64_t(1) << 50;
constexpr double kMaxFlops = 1e18;

// Reads a report's fields, each checked for type and range; the first problem is kept as
// "FIELD: what was expected".
class Fields {
  public:
    explicit Fields(const nlohmann::json& j, std::string prefix = "") : j_(j), prefix_(std::move(prefix)) {}
    const std::string& problem() const { return problem_; }
    bool has(const char* key) const { return j_.contains(key) && !j_[key].is_null(); }

    std::string text(const char* key, bool required = true) {
        if (!has(key)) return required ? fail(key, "is missing"), "" : "";
        if (!j_[key].is_string()) return fail(key, "must be text"), "";
        return j_[key].get<std::string>();
    }
    // Finite, at least 0, at most `max`: a figure beyond it cannot be a real run's and would
    // draw an axis of 300-digit labels.
    double number(const char* key, const char* what = "a number of seconds", double max = kMaxSeconds) {
        if (!has(key) || !j_[key].is_number()) return fail(key, std::string("must be ") + what), 0;
        const double v = j_[key].get<double>();
        if (!(v >= 0) || !std::isfinite(v)) return fail(key, "must be finite and not negative"), 0;
        if (v > max) return fail(key, "must be at most " + number_text(max)), 0;
        return v;
    }
    uint64_t count(const char* key, uint64_t fallback, uint64_t max = kMaxCount) {
        if (!has(key)) return fallback;
        // Text gives unsigned numbers, a report built in memory signed ones: both are fine at 0 or more.
        const auto& n = j_[key];
        if (!n.is_number_integer() || (n.is_number_unsigned() ? false : n.get<int64_t>() < 0))
            return fail(key, "must be a whole number, 0 or more"), fallback;
        const uint64_t v = n.get<uint64_t>();
        if (v > max) return fail(key, "must be at most " + std::to_string(max)), fallback;
        return v;
    }
    bool flag(const char* key) {
        if (!has(key)) return false;
        if (!j_[key].is_boolean()) return fail(key, "must be true or false"), false;
        return j_[key].get<bool>();
    }
    void fail(const std::string& key, const std::string& why) {
        if (problem_.empty()) problem_ = "'" + prefix_ + key + "' " + why;
    }

  private:
    const nlohmann::json& j_;
    std::string prefix_;
    std::string problem_;
};

Outcome<StageFigures> parse_stage(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) return {std::nullopt, "'" + where + "' must be an object"};
    Fields f(j, where + ".");
    StageFigures s;
    s.name = f.text("name");
    if (f.problem().empty() && s.name != "alloc" && s.name != "h2d" && s.name != "kernel" && s.name != "d2h" &&
        s.name != "cpu")
        f.fail("name", "must be alloc, h2d, kernel, d2h or cpu");
    s.seconds_min = f.number("seconds_min");
    s.seconds_median = f.number("seconds_median");
    s.seconds_max = f.number("seconds_max");
    s.repeats = f.count("repeats", 1);
    s.bytes = f.count("bytes", 0);
    s.origin = f.text("origin");
    if (f.problem().empty() && !(s.seconds_min <= s.seconds_median && s.seconds_median <= s.seconds_max))
        f.fail("seconds_median", "must lie between seconds_min and seconds_max");
    if (!f.problem().empty()) return {std::nullopt, f.problem()};
    return {s, {}};
}

}  // namespace

nlohmann::json to_json(const TimingReport& r) {
    nlohmann::json j;
    j["kernel"] = r.kernel;
    j["shape"] = r.shape;
    j["launch"] = {{"grid", {r.grid.x, r.grid.y, r.grid.z}}, {"block", {r.block.x, r.block.y, r.block.z}}};
    j["flops"] = r.flops;
    j["repeats"] = r.repeats;
    j["pinned"] = r.pinned;
    j["resident"] = r.resident;
    j["program"] = {{"language", language_name(r.program.language)},
                    {"element", element_name(r.program.element)},
                    {"transfers", transfers_name(r.program.transfers)}};
    j["date"] = r.date;
    j["backend"] = r.backend;
    j["device"] = r.device;
    if (r.driver_version) j["driver_version"] = *r.driver_version;
    if (r.runtime_version) j["runtime_version"] = *r.runtime_version;
    j["stages"] = nlohmann::json::array();
    for (const auto& s : r.stages) j["stages"].push_back(stage_json(s));
    j["cpu_reference"] = stage_json(r.cpu_reference);
    j["cpu_reference"]["implementation"] = r.cpu_reference.implementation;
    j["cpu_reference"]["device"] = r.cpu_reference.device;
    j["first_launch_seconds"] = r.first_launch_seconds ? nlohmann::json(*r.first_launch_seconds) : nlohmann::json();
    if (!r.first_launch_origin.empty()) j["first_launch_origin"] = r.first_launch_origin;
    if (!r.first_launch_what.empty()) j["first_launch_what"] = r.first_launch_what;
    if (!r.model.empty()) j["model"] = r.model;
    if (!r.sources.empty()) j["sources"] = r.sources;
    j["note"] = r.note;
    if (r.is_recording()) j["recorded_from"] = r.recorded_from;
    return j;
}

namespace {

// "program": what the recorded program was (absent in recordings made before it existed: CUDA
// C++, float32, explicit transfers).
Outcome<void> read_program(const nlohmann::json& j, TimingReport& r) {
    if (!j.contains("program")) return done();
    const auto& p = j["program"];
    const auto text = [&p](const char* key) {
        return p.is_object() && p.contains(key) && p[key].is_string() ? p[key].get<std::string>() : "";
    };
    const auto language = parse_language(text("language"));
    const auto element = parse_element(text("element"));
    const auto transfers = parse_transfers(text("transfers"));
    if (!language || !element || !transfers)
        return failed(
            "'program' must be {\"language\": cuda|numba, \"element\": float32|float64, \"transfers\": "
            "explicit|host-arrays}");
    r.program = {*language, *element, *transfers};
    return done();
}

// "shape" ([n] or [rows, cols]) and the optional "launch" (grid and block).
Outcome<void> read_shape_and_launch(const nlohmann::json& j, TimingReport& r) {
    if (!j.contains("shape") || !j["shape"].is_array() || j["shape"].empty() || j["shape"].size() > 2)
        return failed("'shape' must be [n] or [rows, cols]");
    for (const auto& d : j["shape"]) {
        if (!d.is_number_unsigned()) return failed("'shape' must hold whole numbers");
        r.shape.push_back(d.get<uint64_t>());
    }
    if (!j.contains("launch")) return done();
    const auto dim = [&](const char* key, Dim3& out) {
        const auto& a = j["launch"].is_object() ? j["launch"].value(key, nlohmann::json()) : nlohmann::json();
        if (!a.is_array() || a.size() != 3) return false;
        for (const auto& v : a)
            if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xffffffffu) return false;
        out = {a[0].get<uint32_t>(), a[1].get<uint32_t>(), a[2].get<uint32_t>()};
        return true;
    };
    if (!dim("grid", r.grid) || !dim("block", r.block))
        return failed("'launch' must hold grid and block as three whole numbers each");
    // A launch CUDA would refuse (blockDim 2000, a zero) was never measured: the file is wrong.
    if (const auto e = validate_launch({r.grid, r.block}, cc90_profile()))
        return failed("'launch' is not one CUDA runs: " + describe(*e));
    return done();
}

// "stages", "cpu_reference" and the optional "sources" of the figures.
Outcome<void> read_stages(const nlohmann::json& j, TimingReport& r) {
    if (!j.contains("stages") || !j["stages"].is_array() || j["stages"].empty())
        return failed("'stages' must be a list of stages");
    for (size_t i = 0; i < j["stages"].size(); ++i) {
        auto s = parse_stage(j["stages"][i], "stages[" + std::to_string(i) + "]");
        if (!s.value) return failed(s.error);
        for (const StageFigures& before : r.stages)
            if (before.name == s.value->name)
                return failed("stages[" + std::to_string(i) + "]: a second '" + before.name + "' stage");
        r.stages.push_back(*s.value);
    }
    if (!j.contains("cpu_reference")) return failed("'cpu_reference' is missing");
    auto cpu = parse_stage(j["cpu_reference"], "cpu_reference");
    if (!cpu.value) return failed(cpu.error);
    static_cast<StageFigures&>(r.cpu_reference) = *cpu.value;
    Fields c(j["cpu_reference"], "cpu_reference.");
    r.cpu_reference.implementation = c.text("implementation", false);
    r.cpu_reference.device = c.text("device", false);
    if (!c.problem().empty()) return failed(c.problem());
    if (!j.contains("sources")) return done();
    if (!j["sources"].is_object()) return failed("'sources' must map fields to their sources");
    for (const auto& [k, v] : j["sources"].items()) {
        if (!v.is_string()) return failed("'sources." + k + "' must be text");
        r.sources[k] = v.get<std::string>();
    }
    return done();
}

}  // namespace

Outcome<TimingReport> parse_timing_report(const nlohmann::json& j) {
    if (!j.is_object()) return {std::nullopt, "not a JSON object"};
    Fields f(j);
    TimingReport r;
    r.kernel = f.text("kernel");
    r.device = f.text("device");
    r.date = f.text("date");
    r.backend = f.text("backend", false);
    r.note = f.text("note", false);
    r.model = f.text("model", false);
    r.first_launch_origin = f.text("first_launch_origin", false);
    r.first_launch_what = f.text("first_launch_what", false);
    r.recorded_from = f.text("recorded_from", false);
    r.flops = f.has("flops") ? f.number("flops", "a number of operations", kMaxFlops) : 0;
    r.repeats = int(std::min<uint64_t>(f.count("repeats", 1), 1'000'000));
    if (r.repeats < 1) f.fail("repeats", "must be at least 1");
    r.pinned = f.flag("pinned");
    r.resident = f.flag("resident");
    if (f.has("first_launch_seconds")) r.first_launch_seconds = f.number("first_launch_seconds");
    if (Outcome<void> program = read_program(j, r); !program.done()) return failure_of(program);
    for (const char* key : {"driver_version", "runtime_version"})
        if (f.has(key)) (key[0] == 'd' ? r.driver_version : r.runtime_version) = int(f.count(key, 0) & 0x7fffffff);
    if (!f.problem().empty()) return {std::nullopt, f.problem()};
    for (const auto read : {read_shape_and_launch, read_stages})
        if (Outcome<void> part = read(j, r); !part.done()) return failure_of(part);
    return {r, {}};
}

GpuTimer measured_gpu(int device, bool pinned) {
    return [device, pinned](const KernelSpec&, const SweepCase& c) -> std::optional<GpuStageSeconds> {
        if (!c.workload) return std::nullopt;
        GpuBenchOptions go;
        go.repeats = 5;
        go.pinned = pinned;
        const Outcome<GpuBenchResult> measured = bench_on_gpu(*c.workload, c.launch, go, device);
        if (!measured.value || measured.value->stages.size() != 3) return std::nullopt;
        const GpuBenchResult& g = *measured.value;
        const auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        return GpuStageSeconds{median(g.stages[0].seconds), median(g.stages[1].seconds), median(g.stages[2].seconds)};
    };
}

std::string cpu_name() {
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "CPU";
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

// Below this, a kernel's event pair measures mostly the launch itself (a few µs).
constexpr double kLaunchBoundSeconds = 20e-6;

std::string milliseconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
    return buf;
}

std::string microseconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
    return buf;
}

// The CPU's side of a timing: the tutorial kernels' tuned twin (OpenBLAS, a loop), or a spec's
// C++ reference.
Outcome<CpuReferenceTiming> time_cpu_side(const ResolvedLaunch& resolved, int repeats, ElementType element) {
    if (!resolved.model) return {time_cpu_reference(resolved.workload, repeats, element), {}};
    return time_spec_reference(*resolved.model->spec, resolved.model->params, resolved.launch, repeats);
}

}  // namespace

std::string modeled_first_launch_sentence(const ModeledTimes& t, const TimedProgram& program) {
    std::string s =
        "creating the context " + milliseconds(t.context) + " + loading the module " + milliseconds(t.module);
    if (program.language == HostLanguage::Numba) s += " + numba's compile " + milliseconds(t.compile);
    return s + " + the launch and kernel " + milliseconds(t.first_launch - t.context - t.module - t.compile) +
           ", each from the profile's sources";
}

std::string first_launch_sentence(const GpuBenchResult& g) {
    const std::string kernel = "the first kernel with its module load " + milliseconds(g.first_kernel_seconds) +
                               " (its data already on the device)";
    if (g.first_launch_warm)
        return "warm: the context existed before this run (" + milliseconds(g.context_seconds) + "); " + kernel;
    return "cold: creating the context " + milliseconds(g.context_seconds) + " + " + kernel +
           "; the driver's start-up, paid when the devices were listed, is not included";
}

Outcome<void> why_not_timed(const TimingRequest& q) {
    const ResolvedLaunch& resolved = q.launch;
    if (q.resident && q.program.transfers == Transfers::HostArrays)
        return failed(
            "numba copies host arrays in and back on every call, so nothing stays resident: time resident data "
            "with explicit transfers (cuda.to_device, --transfers explicit)");
    if (!q.model && q.backend.cuda && !(q.program == TimedProgram{}))
        return failed("a run on this GPU times the CUDA C++ program (float32, explicit copies); the " +
                      describe(q.program) + " program is modeled only (--backend model)");
    if (!resolved.model) return done();
    if (!q.model && q.backend.cuda)
        return failed(resolved.kernel_name() +
                      " has no GPU twin in this build (the tutorial's four kernels have one): its timings are modeled "
                      "(--backend model)");
    if (!resolved.model->spec->reference)
        return failed(resolved.kernel_name() +
                      " has no CPU reference to time next to it (a learner's kernel has none): its accesses, findings, "
                      "memory view and occupancy are all there, its timings are not");
    if (const auto cost = spec_cost(*resolved.model->spec, resolved.model->params, resolved.launch, q.program);
        !cost.value)
        return failed(cost.error);
    return done();
}

namespace {

// The GPU's stages from the profile: its figure, and (as min and max) the same at the ends of
// its ranges; the model stated as used.
void add_modeled_stages(TimingReport& r, const TimingRequest& q, const LaunchCost& cost) {
    const auto times = [&](const DeviceProfile& p) {
        return model_times(p, cost.cost, q.program, q.pinned, q.resident, q.repeats);
    };
    const ModeledTimes t = times(*q.model), fast = times(profile_at_bound(*q.model, true)),
                       slow = times(profile_at_bound(*q.model, false));
    const auto modeled = [](const char* name, double best, double value, double worst, uint64_t bytes) {
        return StageFigures{name, best, value, worst, 1, bytes, "modeled"};
    };
    r.backend = "model";
    r.device = q.model->title + " (model: " + q.model->name + ")";
    if (cost.cost.allocations_per_call > 0) r.stages.push_back(modeled("alloc", fast.alloc, t.alloc, slow.alloc, 0));
    r.stages.push_back(modeled("h2d", fast.h2d, t.h2d, slow.h2d, cost.cost.h2d_bytes));
    r.stages.push_back(modeled("kernel", fast.kernel, t.kernel, slow.kernel, cost.cost.kernel_bytes));
    r.stages.push_back(modeled("d2h", fast.d2h, t.d2h, slow.d2h, cost.cost.d2h_bytes));
    r.first_launch_seconds = t.first_launch;
    r.first_launch_origin = "modeled";
    r.first_launch_what = modeled_first_launch_sentence(t, q.program);
    const std::string spec_bytes =
        !q.launch.model       ? ""
        : cost.cost.flops > 0 ? "bytes: the kernel's global arrays at this launch; flops: as it declares; "
                              : "bytes: the kernel's global arrays at this launch; flops: none declared (it moves "
                                "data), so its time rests on bytes and sectors; ";
    r.model =
        "allocation = allocations per call x alloc_s (numba host arrays: every array, every call); copy = "
        "copy latency + bytes / host-link bandwidth; kernel = launch cost (CUDA C++, or numba's base + per "
        "array argument) + max(bytes / (memory bandwidth x achievable fraction), sectors x 32 B / L1 bandwidth, "
        "flops / FP32 or FP64 peak) x waves / (blocks / slots), every wave costing a full one's time (slots: "
        "active blocks per SM x SMs, by CUDA's occupancy calculator); bytes: each array once, what DRAM moves "
        "when the caches keep the reuse; " +
        spec_bytes + cost.sectors +
        "; resident launches back to back: max(launch, kernel) each; first call = context + module load (+ "
        "numba's compile) + launch and kernel. Min and max: the profile's ranges at their ends.";
    r.sources = q.model->sources;
    r.note = "GPU figures modeled for " + describe(q.program) + " from the profile (sources in 'sources'); kernel " +
             cost.sectors + "; the CPU reference measured here.";
}

// The GPU's stages measured with CUDA events.
Outcome<void> add_measured_stages(TimingReport& r, const TimingRequest& q) {
    GpuBenchOptions go;
    go.repeats = q.repeats;
    go.pinned = q.pinned;
    go.resident = q.resident;
    const Outcome<GpuBenchResult> measured = bench_on_gpu(q.launch.workload, q.launch.launch, go, q.backend.device);
    if (!measured.value) return failure_of(measured);
    const GpuBenchResult& g = *measured.value;
    r.backend = "cuda";
    r.device = g.device;
    r.driver_version = g.driver_version;
    r.runtime_version = g.runtime_version;
    for (const auto& s : g.stages) r.stages.push_back(stage(s.name, s.seconds, s.bytes, s.origin));
    r.first_launch_seconds = g.first_launch_seconds;
    r.first_launch_origin = "measured";
    r.first_launch_what = first_launch_sentence(g);
    r.note =
        "CUDA events around each copy and kernel, on a stream of the bench's own; the CPU reference on "
        "this machine's host clock.";
    const StageFigures& k = r.stages[1];
    if (k.seconds_median < kLaunchBoundSeconds)
        r.note += " A kernel this short is mostly launch overhead between its events: " + std::to_string(q.repeats) +
                  " launches back to back took " + microseconds(g.kernel_back_to_back_seconds) + " each.";
    return done();
}

}  // namespace

Outcome<TimingReport> measure_timing(const TimingRequest& q) {
    const ResolvedLaunch& resolved = q.launch;
    if (const Outcome<void> why = why_not_timed(q); !why.done()) return {std::nullopt, why.error};
    std::optional<LaunchCost> cost;
    if (q.model) {  // first: a program the model cannot price is said before the CPU's wait
        auto c = launch_cost(resolved, q.program, *q.model, true);
        if (!c.value) return failure_of(c);
        cost = std::move(*c.value);
    }
    // The CPU runs enough times for a stable median; more would only lengthen the wait.
    const auto timed = time_cpu_side(resolved, std::min(q.repeats, 50), q.program.element);
    if (!timed.value) return failure_of(timed);
    const CpuReferenceTiming& ref = *timed.value;
    TimingReport r;
    r.kernel = resolved.kernel_name();
    r.shape = map_shape(resolved.workload);
    r.grid = resolved.launch.grid;
    r.block = resolved.launch.block;
    r.flops = ref.flops;
    r.repeats = q.repeats;
    r.pinned = q.pinned;
    r.resident = q.resident;
    r.program = q.program;
    r.date = utc_now();
    static_cast<StageFigures&>(r.cpu_reference) = stage("cpu", ref.seconds, ref.bytes, "measured");
    r.cpu_reference.implementation = ref.implementation;
    r.cpu_reference.device = cpu_name();
    if (q.model) {
        add_modeled_stages(r, q, *cost);
    } else if (q.backend.cuda) {
        if (const Outcome<void> error = add_measured_stages(r, q); !error.done()) return {std::nullopt, error.error};
    } else {
        r.backend = "cpu";
        r.device = cpu_name();
        r.stages = {stage("cpu", ref.seconds, ref.bytes, "measured")};
        r.note = "No GPU timings here (" + q.backend.reason + "): the CPU computation alone, on a steady clock.";
    }
    return {r, {}};
}

TimingReport launch_key(const ResolvedLaunch& resolved) {
    TimingReport r;
    r.kernel = resolved.kernel_name();
    r.shape = map_shape(resolved.workload);
    return r;
}

Outcome<TimingReport> load_recording(const std::string& path, const TimingReport* like) {
    const auto text = read_input_file(path, kMaxRecordingBytes, "recording");
    if (!text.value) return failure_of(text);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text.value);
    } catch (const nlohmann::json::exception& e) {
        return {std::nullopt, path + " is not JSON: " + e.what()};
    }
    auto parsed = parse_timing_report(j);
    if (!parsed.value) return {std::nullopt, path + " is not a threadmap bench recording: " + parsed.error};
    TimingReport& r = *parsed.value;
    if (like && (r.kernel != like->kernel || r.shape != like->shape)) {
        const auto shape = [](const std::vector<uint64_t>& s) { return nlohmann::json(s).dump(); };
        return {std::nullopt, path + " is not a threadmap bench recording: it is for " + r.kernel + " " +
                                  shape(r.shape) + ", the current launch is " + like->kernel + " " +
                                  shape(like->shape)};
    }
    // What a recording shows was measured elsewhere: it is "recorded" here, wherever it came from.
    for (auto& s : r.stages) s.origin = "recorded";
    r.cpu_reference.origin = "recorded";
    if (!r.first_launch_origin.empty()) r.first_launch_origin = "recorded";
    r.recorded_from = r.device + ", " + r.date;
    return parsed;
}

}  // namespace threadmap
