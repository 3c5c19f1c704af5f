// Timing panel state and jobs; see timing_state.hpp.
#include "timing_state.hpp"

#include "sweep_setup.hpp"

#include <algorithm>
#include <fstream>

#include "cpu_reference.hpp"
#include "cuda_backend.hpp"
#include "device_profiles.hpp"
#include "timing_report.hpp"

namespace threadmap {

namespace {

bool running(const std::future<nlohmann::json>& f) { return f.valid(); }

const DeviceProfile* chosen_profile(const TimingState& t) {
    const auto& all = device_profiles();
    return all.empty() ? nullptr : &all[size_t(std::clamp(t.profile, 0, int(all.size()) - 1))];
}

BackendChoice cpu_backend() {
    BackendChoice b;
    b.name = "cpu-emulator";
    b.reason = "no CUDA device";
    return b;
}

}  // namespace

bool start_timing_run(TimingState& t, const ResolvedLaunch& launch, const std::optional<BackendChoice>& backend) {
    if (running(t.run) || t.source == TimingSource::Recorded) return false;
    TimingRequest q{launch, backend.value_or(cpu_backend()), nullptr, t.pinned, t.resident, t.repeats};
    if (t.source == TimingSource::Modeled) q.model = chosen_profile(t);
    t.message.clear();
    t.run = std::async(std::launch::async, [q, &t] {
        std::string error;
        nlohmann::json j = measure_timing(q, error);
        if (j.is_null()) t.run_error = error;
        return j;
    });
    return true;
}

bool start_sweep(TimingState& t, KernelKind kernel, const std::optional<BackendChoice>& backend) {
    if (t.sweep_job.valid()) return false;
    const DeviceProfile* model = t.source == TimingSource::Modeled ? chosen_profile(t) : nullptr;
    const SweepGpu gpu = t.source == TimingSource::Recorded ? SweepGpu{} : sweep_gpu(model, backend, t.pinned);
    const SweepRange range = default_sweep_range(kernel);
    const std::vector<uint64_t> sizes = sweep_sizes(range.from, range.to, kDefaultSweepPoints);
    t.sweep_cancel = false;
    t.sweep_done = 0;
    t.sweep_total = sizes.size();
    t.sweep_job = std::async(std::launch::async, [&t, kernel, sizes, gpu] {
        return run_sweep(
            kernel, sizes, cpu_median_seconds, gpu.timer, gpu.origin, gpu.device,
            [&t](size_t done, size_t) { t.sweep_done = done; }, &t.sweep_cancel);
    });
    return true;
}

void load_recording_into(TimingState& t, const nlohmann::json& like) {
    Recording r = load_recording(t.recording_path, like);
    if (!r.error.empty()) {
        t.message = r.error;
        return;
    }
    if (!t.current.is_null()) t.history.push_front(t.current);
    if (t.history.size() > kTimingHistory) t.history.pop_back();
    t.current = r.report;
    t.message.clear();
}

void poll_timing_jobs(TimingState& t) {
    using namespace std::chrono_literals;
    if (t.run.valid() && t.run.wait_for(0s) == std::future_status::ready) {
        nlohmann::json j = t.run.get();
        if (j.is_null()) {
            t.message = t.run_error;
        } else {
            if (!t.current.is_null()) t.history.push_front(t.current);
            if (t.history.size() > kTimingHistory) t.history.pop_back();
            t.current = std::move(j);
        }
    }
    if (t.sweep_job.valid() && t.sweep_job.wait_for(0s) == std::future_status::ready) t.sweep = t.sweep_job.get();
}

std::string save_timing_numbers(const TimingState& t, const std::string& dir, std::time_t when) {
    char stamp[32];
    std::tm local{};
    localtime_r(&when, &local);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    std::string saved;
    if (t.current.is_object()) {
        const std::string path =
            dir + "/threadmap-timing-" + t.current["kernel"].get<std::string>() + "-" + stamp + ".json";
        std::ofstream f(path);
        if (!(f << t.current.dump(1) << "\n")) return "cannot write " + path;
        saved = path;
    }
    if (t.sweep) {
        const std::string path = dir + "/threadmap-sweep-" + stamp + ".csv";
        std::ofstream f(path);
        f << sweep_csv(*t.sweep);
        if (!f) return "cannot write " + path;
        saved += (saved.empty() ? "" : " and ") + path;
    }
    return saved.empty() ? "nothing to save yet" : "saved " + saved;
}

std::vector<TimingBar> timing_bars(const nlohmann::json& j, bool resident, bool first_launch, double& axis) {
    std::vector<TimingBar> bars;
    axis = 0;
    if (!j.is_object()) return bars;
    if (gpu_seconds_per_launch(j, resident)) {
        TimingBar gpu;
        const std::string origin = j["stages"][0]["origin"];
        gpu.label =
            std::string(resident ? "GPU per launch, data resident" : "GPU, copies every launch") + " (" + origin + ")";
        if (first_launch && j["first_launch_seconds"].is_number())
            gpu.segments.push_back({"first", j["first_launch_seconds"]});
        const double share = resident ? std::max(1.0, double(j.value("repeats", 1))) : 1.0;
        for (const auto& s : j["stages"])
            gpu.segments.push_back({s["name"], double(s["seconds_median"]) / (s["name"] == "kernel" ? 1.0 : share)});
        bars.push_back(gpu);
    }
    bars.push_back({"CPU, " + j["cpu_reference"].value("implementation", std::string("reference")) + " (" +
                        j["cpu_reference"]["origin"].get<std::string>() + ")",
                    {{"cpu", j["cpu_reference"]["seconds_median"]}}});
    for (const auto& b : bars) {
        double total = 0;
        for (const auto& seg : b.segments) total += seg.second;
        axis = std::max(axis, total);
    }
    return bars;
}

std::optional<double> gpu_seconds_per_launch(const nlohmann::json& report, bool resident) {
    if (!report.is_object() || !report.contains("stages")) return std::nullopt;
    double h2d = -1, kernel = -1, d2h = -1;
    for (const auto& s : report["stages"]) {
        const double m = s["seconds_median"];
        if (s["name"] == "h2d") h2d = m;
        if (s["name"] == "kernel") kernel = m;
        if (s["name"] == "d2h") d2h = m;
    }
    if (h2d < 0 || kernel < 0 || d2h < 0) return std::nullopt;
    const double repeats = std::max(1.0, double(report.value("repeats", 1)));
    return resident ? kernel + (h2d + d2h) / repeats : h2d + kernel + d2h;
}

}  // namespace threadmap
