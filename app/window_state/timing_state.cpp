// Timing panel state and jobs; see timing_state.hpp.
#include "app/window_state/timing_state.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/launch/backend_choice.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/window_state/export_names.hpp"
#include "app/launch/input_file.hpp"
#include "app/reports/sweep_setup.hpp"
#include "app/reports/timing_report.hpp"

namespace threadmap {

namespace {

const DeviceProfile* chosen_profile(const TimingState& t) {
    const auto& all = device_profiles();
    return all.empty() ? nullptr : &all[size_t(std::clamp(t.profile, 0, int(all.size()) - 1))];
}

}  // namespace

bool start_timing_run(TimingState& t, const ResolvedLaunch& launch, const std::optional<BackendChoice>& backend) {
    if (t.run.valid() || t.source == TimingSource::Recorded) return false;
    TimingRequest q{launch,   backend.value_or(cpu_backend("no CUDA device")), nullptr, t.pinned, t.resident, t.repeats,
                    t.program};
    if (t.source == TimingSource::Modeled) q.model = chosen_profile(t);
    t.message.clear();
    t.run = std::async(std::launch::async, [q] { return measure_timing(q); });
    return true;
}

Outcome<void> why_no_sweep(const TimingState& t, const ResolvedLaunch& launch,
                           const std::optional<BackendChoice>& backend) {
    if (t.source == TimingSource::Recorded) return failed("a recording is one run: sweep measured or modeled");
    return why_no_sweep(launch, t.program, t.source == TimingSource::Modeled ? chosen_profile(t) : nullptr, backend);
}

bool start_sweep(TimingState& t, const ResolvedLaunch& launch, const std::optional<BackendChoice>& backend) {
    if (t.sweep_job.valid()) return false;
    if (const Outcome<void> why = why_no_sweep(t, launch, backend); !why.done()) {
        t.message = "No sweep: " + why.error + ".";
        return false;
    }
    const DeviceProfile* model = t.source == TimingSource::Modeled ? chosen_profile(t) : nullptr;
    const SweepGpu gpu = sweep_gpu(model, backend, t.pinned, t.program);
    const ElementType element = t.program.element;
    const SweptKernel kernel = swept_kernel(launch);
    const std::shared_ptr<const void> keep = launch.model ? launch.model->owner : nullptr;  // a learner's spec
    const SweepRange range = default_sweep_range(*kernel.spec);
    const std::vector<uint64_t> sizes = sweep_sizes(range.from, range.to, kDefaultSweepPoints);
    t.sweep_cancel = false;
    t.sweep_done = 0;
    t.sweep_total = sizes.size();
    t.sweep_job = std::async(std::launch::async, [&t, kernel, keep, sizes, gpu, element] {
        return run_sweep(
            kernel, sizes, sweep_cpu_clock(element), gpu, [&t](size_t done, size_t) { t.sweep_done = done; },
            &t.sweep_cancel);
    });
    return true;
}

namespace {

void show(TimingState& t, TimingReport report) {
    if (t.current) t.history.push_front(std::move(*t.current));
    if (t.history.size() > kTimingHistory) t.history.pop_back();
    t.current = std::move(report);
    t.message.clear();
}

}  // namespace

void load_recording_into(TimingState& t, const ResolvedLaunch& like) {
    const TimingReport key = launch_key(like);
    Outcome<TimingReport> r = load_recording(t.recording_path, &key);
    if (!r.value) {
        t.message = r.error;  // the report on show stays
        return;
    }
    show(t, std::move(*r.value));
}

void poll_timing_jobs(TimingState& t) {
    using namespace std::chrono_literals;
    if (t.run.valid() && t.run.wait_for(0s) == std::future_status::ready) {
        Outcome<TimingReport> r = t.run.get();
        if (r.value)
            show(t, std::move(*r.value));
        else
            t.message = r.error;
    }
    if (t.sweep_job.valid() && t.sweep_job.wait_for(0s) == std::future_status::ready) t.sweep = t.sweep_job.get();
}

std::string save_timing_numbers(const TimingState& t, const std::string& dir, std::time_t when) {
    const std::string stamp = file_stamp(when);
    std::string saved;
    if (t.current) {
        const std::string path = dir + "/threadmap-timing-" + t.current->kernel + "-" + stamp + ".json";
        if (const auto w = write_file(path, to_json(*t.current).dump(1) + "\n"); !w.done()) return w.error;
        saved = path;
    }
    if (t.sweep) {
        const std::string path = dir + "/threadmap-sweep-" + stamp + ".csv";
        if (const auto w = write_file(path, sweep_csv(*t.sweep)); !w.done()) return w.error;
        saved += (saved.empty() ? "" : " and ") + path;
    }
    return saved.empty() ? "nothing to save yet" : "saved " + saved;
}

std::vector<TimingBar> timing_bars(const TimingReport& r, bool resident, bool first_launch, double& axis) {
    std::vector<TimingBar> bars;
    axis = 0;
    if (gpu_seconds_per_launch(r, resident)) {
        TimingBar gpu;
        gpu.label = std::string(resident ? "GPU per launch, data resident" : "GPU, copies every call") + " (" +
                    r.stages.front().origin + ")";
        if (first_launch && r.first_launch_seconds) gpu.segments.push_back({"first", *r.first_launch_seconds});
        const double share = resident ? std::max(1.0, double(r.repeats)) : 1.0;
        for (const auto& s : r.stages)
            gpu.segments.push_back({s.name, s.seconds_median / (s.name == "kernel" ? 1.0 : share)});
        bars.push_back(gpu);
    }
    const std::string implementation =
        r.cpu_reference.implementation.empty() ? "reference" : r.cpu_reference.implementation;
    bars.push_back(
        {"CPU, " + implementation + " (" + r.cpu_reference.origin + ")", {{"cpu", r.cpu_reference.seconds_median}}});
    for (const auto& b : bars) {
        double total = 0;
        for (const auto& seg : b.segments) total += seg.second;
        axis = std::max(axis, total);
    }
    return bars;
}

std::optional<double> gpu_seconds_per_launch(const TimingReport& r, bool resident) {
    double alloc = 0, h2d = -1, kernel = -1, d2h = -1;  // alloc: numba's host arrays only
    for (const auto& s : r.stages) {
        if (s.name == "h2d") h2d = s.seconds_median;
        if (s.name == "kernel") kernel = s.seconds_median;
        if (s.name == "d2h") d2h = s.seconds_median;
        if (s.name == "alloc") alloc = s.seconds_median;
    }
    if (h2d < 0 || kernel < 0 || d2h < 0) return std::nullopt;
    const double repeats = std::max(1.0, double(r.repeats));
    return resident ? kernel + (alloc + h2d + d2h) / repeats : alloc + h2d + kernel + d2h;
}

}  // namespace threadmap
