// One timing run as the bench JSON (the schema in README.md): measured on a GPU, modeled
// from a device profile, or the CPU alone — always next to the measured CPU reference — and
// recordings of such runs loaded back ("recorded" on every figure). `threadmap bench` and
// the window's timing panel both go through here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "backend_choice.hpp"
#include "sweep.hpp"
#include "timing_model.hpp"

namespace threadmap {

struct TimingRequest {
    ResolvedLaunch launch;
    BackendChoice backend;
    const DeviceProfile* model = nullptr;  // set: the GPU stages are modeled from it
    bool pinned = false;
    bool resident = false;
    int repeats = 10;
};

// The report; error is set (and the report empty) when the GPU failed.
nlohmann::json measure_timing(const TimingRequest& request, std::string& error);

// A report from a file written by `threadmap bench --json`: checked field by field, every
// origin turned into "recorded", and "recorded_from" set to "DEVICE, DATE". When
// `expect_like` is a report, a recording of another kernel or shape is refused.
struct Recording {
    nlohmann::json report;  // empty when error is set
    std::string error;
};
Recording load_recording(const std::string& path, const nlohmann::json& expect_like = nullptr);

// The sweep's two clocks: the CPU reference's median over enough runs for a stable median
// (≈ 20 ms of work, 3 to 50 runs), and the GPU's stages measured with CUDA events (median
// of 5) at the default block for each size.
double cpu_median_seconds(const Workload& w);
GpuTimer measured_gpu(int device, bool pinned);

std::string cpu_name();  // /proc/cpuinfo's model name
std::string utc_now();   // 2026-11-30T06:23:17Z

}  // namespace threadmap
