// Timing reports; see timing_report.hpp.
#include "timing_report.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>

#include "cpu_reference.hpp"
#include "cuda_backend.hpp"

namespace threadmap {

namespace {

nlohmann::json stage_json(const std::string& name, std::vector<double> s, uint64_t bytes, const std::string& origin) {
    std::sort(s.begin(), s.end());
    return {{"name", name},
            {"seconds_min", s.front()},
            {"seconds_median", s[s.size() / 2]},
            {"seconds_max", s.back()},
            {"repeats", s.size()},
            {"bytes", bytes},
            {"origin", origin}};
}

bool valid_stage(const nlohmann::json& s) {
    if (!s.is_object() || !s.contains("name") || !s["name"].is_string() || !s.contains("bytes") ||
        !s["bytes"].is_number() || !s.contains("origin") || !s["origin"].is_string())
        return false;
    for (const char* k : {"seconds_min", "seconds_median", "seconds_max"})
        if (!s.contains(k) || !s[k].is_number() || !(double(s[k]) >= 0)) return false;
    return true;
}

}  // namespace

double cpu_median_seconds(const Workload& w) {
    const double once = time_cpu_reference(w, 1).seconds.front();
    std::vector<double> s = time_cpu_reference(w, int(std::clamp(0.02 / std::max(once, 1e-9), 3.0, 50.0))).seconds;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

GpuTimer measured_gpu(int device, bool pinned) {
    return [device, pinned](const Workload& w) -> std::optional<GpuStageSeconds> {
        GpuBenchOptions go;
        go.repeats = 5;
        go.pinned = pinned;
        const Dim3 block = default_block(w.kernel);
        const GpuBenchResult g = bench_on_gpu(w, {covering_grid(w, block), block}, go, device);
        if (!g.error.empty() || g.stages.size() != 3) return std::nullopt;
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

nlohmann::json measure_timing(const TimingRequest& q, std::string& error) {
    const ResolvedLaunch& r = q.launch;
    // The CPU runs enough times for a stable median; more would only lengthen the wait.
    const CpuReferenceTiming ref = time_cpu_reference(r.workload, std::min(q.repeats, 50));
    nlohmann::json j;
    j["kernel"] = std::string(kernel_name(r.workload.kernel));
    j["shape"] = map_shape(r.workload);
    j["launch"] = {{"grid", {r.launch.grid.x, r.launch.grid.y, r.launch.grid.z}},
                   {"block", {r.launch.block.x, r.launch.block.y, r.launch.block.z}}};
    j["flops"] = ref.flops;
    j["repeats"] = q.repeats;
    j["pinned"] = q.pinned;
    j["resident"] = q.resident;
    j["date"] = utc_now();
    j["cpu_reference"] = stage_json("cpu", ref.seconds, ref.bytes, "measured");
    j["cpu_reference"]["implementation"] = ref.implementation;
    j["cpu_reference"]["device"] = cpu_name();
    if (q.model) {
        const WorkloadCost cost = workload_cost(r.workload);
        const ModeledTimes t = model_times(*q.model, cost, q.pinned);
        j["backend"] = "model";
        j["device"] = q.model->title + " (model: " + q.model->name + ")";
        j["stages"] = {stage_json("h2d", {t.h2d}, cost.h2d_bytes, "modeled"),
                       stage_json("kernel", {t.kernel}, cost.kernel_bytes, "modeled"),
                       stage_json("d2h", {t.d2h}, cost.d2h_bytes, "modeled")};
        j["first_launch_seconds"] = t.first_launch;
        j["first_launch_origin"] = "modeled";
        j["model"] =
            "copy = latency + bytes / bandwidth; kernel = launch latency + max(bytes / memory bandwidth, "
            "flops / FP32 peak); first launch = start-up + kernel";
        j["sources"] = q.model->sources;
        j["note"] = "GPU figures modeled from the profile (sources in 'sources'); the CPU reference measured here.";
    } else if (q.backend.cuda) {
        GpuBenchOptions go;
        go.repeats = q.repeats;
        go.pinned = q.pinned;
        go.resident = q.resident;
        const GpuBenchResult g = bench_on_gpu(r.workload, r.launch, go, q.backend.device);
        if (!g.error.empty()) {
            error = g.error;
            return nullptr;
        }
        j["backend"] = "cuda";
        j["device"] = g.device;
        j["driver_version"] = g.driver_version;
        j["runtime_version"] = g.runtime_version;
        j["stages"] = nlohmann::json::array();
        for (const auto& s : g.stages) j["stages"].push_back(stage_json(s.name, s.seconds, s.bytes, s.origin));
        j["first_launch_seconds"] = g.first_launch_seconds;
        j["first_launch_origin"] = "measured";
        j["note"] = "CUDA events around each copy and kernel; the CPU reference on this machine's host clock.";
    } else {
        j["backend"] = "cpu";
        j["device"] = cpu_name();
        j["stages"] = {stage_json("cpu", ref.seconds, ref.bytes, "measured")};
        j["first_launch_seconds"] = nullptr;
        j["note"] = "No GPU timings here (" + q.backend.reason + "): the CPU computation alone, on a steady clock.";
    }
    return j;
}

Recording load_recording(const std::string& path, const nlohmann::json& like) {
    Recording r;
    std::ifstream f(path);
    if (!f) {
        r.error = "cannot read the recording " + path;
        return r;
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(f);
    } catch (const nlohmann::json::exception& e) {
        r.error = path + " is not JSON: " + e.what();
        return r;
    }
    const auto fail = [&](const std::string& why) {
        r.error = path + " is not a threadmap bench recording: " + why;
        return r;
    };
    if (!j.is_object()) return fail("not an object");
    for (const char* key : {"device", "kernel", "date"})
        if (!j.contains(key) || !j[key].is_string()) return fail(std::string("no '") + key + "'");
    if (!j.contains("shape") || !j["shape"].is_array()) return fail("no 'shape'");
    if (!j.contains("stages") || !j["stages"].is_array() || j["stages"].empty()) return fail("no 'stages'");
    for (const auto& s : j["stages"])
        if (!valid_stage(s)) return fail("a stage without name, seconds, bytes and origin");
    if (!j.contains("cpu_reference") || !valid_stage(j["cpu_reference"])) return fail("no 'cpu_reference'");
    if (like.is_object() && (j["kernel"] != like["kernel"] || j["shape"] != like["shape"]))
        return fail("it is for " + std::string(j["kernel"]) + " " + j["shape"].dump() + ", the current launch is " +
                    std::string(like["kernel"]) + " " + like["shape"].dump());
    // What a recording shows was measured elsewhere: it is "recorded" here, wherever it came from.
    for (auto& s : j["stages"]) s["origin"] = "recorded";
    j["cpu_reference"]["origin"] = "recorded";
    if (j.contains("first_launch_origin")) j["first_launch_origin"] = "recorded";
    j["recorded_from"] = std::string(j["device"]) + ", " + std::string(j["date"]);
    r.report = j;
    return r;
}

}  // namespace threadmap
