// One timing run as the bench JSON (the schema in README.md): measured on a GPU, modeled
// from a device profile, or the CPU alone — always next to the measured CPU reference — and
// recordings of such runs loaded back ("recorded" on every figure). `threadmap bench` and
// the window's timing panel both go through here.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/launch/backend_choice.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/timing/sweep.hpp"
#include "kernels/timing/timing_model.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

struct TimingRequest {
    ResolvedLaunch launch;
    BackendChoice backend;
    const DeviceProfile* model = nullptr;  // set: the GPU stages are modeled from it
    bool pinned = false;
    bool resident = false;
    int repeats = 10;
    TimedProgram program;  // what the timed code does (a measured run times CUDA C++, float32, explicit)
};

// One timing run. `stages` are the GPU's (h2d, kernel, d2h) or, with no GPU, the CPU's alone;
// every figure carries its origin: measured, modeled or recorded.
struct StageFigures {
    std::string name;  // "h2d", "kernel", "d2h", "cpu"
    double seconds_min = 0, seconds_median = 0, seconds_max = 0;
    uint64_t repeats = 0;
    uint64_t bytes = 0;  // moved by a copy, or touched by the kernel
    std::string origin;  // "measured" | "modeled" | "recorded"
};

struct CpuFigures : StageFigures {
    std::string implementation;  // "OpenBLAS sgemm (2 threads)", "loop a[i] += 1 …"
    std::string device;          // the CPU's model name
};

struct TimingReport {
    std::string kernel;
    std::vector<uint64_t> shape;
    Dim3 grid, block;
    double flops = 0;
    int repeats = 1;
    bool pinned = false, resident = false;
    TimedProgram program;  // language, element type and transfers of the code timed
    std::string date;      // 2026-11-30T06:23:17Z
    std::string backend;   // "cuda" | "model" | "cpu"
    std::string device;
    std::optional<int> driver_version, runtime_version;  // measured on a GPU
    std::vector<StageFigures> stages;
    CpuFigures cpu_reference;
    std::optional<double> first_launch_seconds;
    std::string first_launch_origin;
    std::string first_launch_what;               // what it covers: cold or warm, its parts, what it leaves out
    std::string model;                           // a modeled run states its model …
    std::map<std::string, std::string> sources;  // … and where each number comes from
    std::string note;
    std::string recorded_from;  // a recording: "DEVICE, DATE"

    bool is_recording() const { return !recorded_from.empty(); }
};

// The bench JSON (the schema in README.md), and back: every field's type and range checked,
// a refusal naming the field.
nlohmann::json to_json(const TimingReport& report);
Outcome<TimingReport> parse_timing_report(const nlohmann::json& j);

// What a measured first launch covers, in words: cold or warm, its two parts in ms, and
// what it leaves out (the driver's start-up).
std::string first_launch_sentence(const GpuBenchResult& g);
// The same for a modeled first call: its context, module and (numba) compile parts.
std::string modeled_first_launch_sentence(const ModeledTimes& t, const TimedProgram& program);

// error: set (and no report) when the GPU failed.
// Why this request cannot be timed (a usage problem: the program, the backend, the kernel), or
// nullopt.
Outcome<void> why_not_timed(const TimingRequest& request);
Outcome<TimingReport> measure_timing(const TimingRequest& request);

// A report from a file written by `threadmap bench --json`: checked field by field, every
// origin turned into "recorded", and recorded_from set to "DEVICE, DATE". With `like`, a
// recording of another kernel or shape is refused.
Outcome<TimingReport> load_recording(const std::string& path, const TimingReport* like = nullptr);
TimingReport launch_key(const ResolvedLaunch& launch);  // kernel and shape only, for `like`

// The sweep's measured GPU clock: each size's launch (the sweep's block) timed with CUDA events,
// median of 5; a kernel without a GPU twin has no time (sweeps refuse it first: why_no_sweep).
GpuTimer measured_gpu(int device, bool pinned);

std::string cpu_name();  // /proc/cpuinfo's model name
std::string utc_now();   // 2026-11-30T06:23:17Z

}  // namespace threadmap
