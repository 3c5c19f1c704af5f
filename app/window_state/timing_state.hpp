// The timing panel's state and its background work: a run (measured, modeled, or a loaded
// recording) and a size sweep, both off the UI thread so the window stays interactive.
#pragma once

#include <atomic>
#include <ctime>
#include <deque>
#include <future>
#include <optional>
#include <string>

#include "app/launch/backend_choice.hpp"
#include "kernels/timing/sweep.hpp"
#include "viz/draw/timing_figure.hpp"
#include "app/reports/timing_report.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

enum class TimingSource { Measured, Modeled, Recorded };

struct TimingState {
    TimingSource source = TimingSource::Modeled;  // no GPU is the common case
    int profile = 0;                              // index into device_profiles()
    bool pinned = false;                          // page-locked host memory
    bool resident = false;                        // copy once, launch `repeats` times
    bool first_launch = false;                    // show the first launch of a process next to warm ones
    int repeats = 10;
    TimedProgram program;                 // what the timed code does (the Code tab shows it)
    std::string recording_path;           // a `threadmap bench --json` file
    std::optional<TimingReport> current;  // the report on show
    std::deque<TimingReport> history;     // earlier reports, newest first
    std::string message;                  // why a run or a recording failed; the report on show stays

    std::future<Outcome<TimingReport>> run;  // a run in progress
    std::future<SweepResult> sweep_job;
    std::atomic<bool> sweep_cancel{false};
    std::atomic<size_t> sweep_done{0}, sweep_total{0};
    std::optional<SweepResult> sweep;
    // The sweep asked for from the button beside "run": the tab scrolls to its chart once it is
    // drawn (below the table, it was under a 720-pixel window's edge).
    bool scroll_to_sweep = false;

    ~TimingState() { sweep_cancel = true; }  // a running sweep stops at its next size
};

inline constexpr size_t kTimingHistory = 8;

// Starts a measured or modeled run of `launch` on the chosen backend; false when one runs.
bool start_timing_run(TimingState& t, const ResolvedLaunch& launch, const std::optional<BackendChoice>& backend);
// Why the launch's kernel has no sweep with the chosen clocks, if it has none (why_no_sweep).
Outcome<void> why_no_sweep(const TimingState& t, const ResolvedLaunch& launch,
                           const std::optional<BackendChoice>& backend);
// Starts a sweep of the launch's kernel at the launch's block; false when one runs or the
// kernel has no sweep (t.message says why).
bool start_sweep(TimingState& t, const ResolvedLaunch& launch, const std::optional<BackendChoice>& backend);
// Loads t.recording_path; on failure t.message says why and the report on show stays.
void load_recording_into(TimingState& t, const ResolvedLaunch& like);
// Collects finished background work (call once a frame).
void poll_timing_jobs(TimingState& t);

// Writes the report on show (bench JSON) and the sweep (bench --sweep CSV) into `dir`,
// named after the kernel and the time; returns what was saved, or why not.
std::string save_timing_numbers(const TimingState& t, const std::string& dir, std::time_t when);

// Per-launch GPU seconds of a report: h2d + kernel + d2h, or with `resident` the kernel
// plus the copies shared out over the repeats. Empty when the report has no GPU stages.
std::optional<double> gpu_seconds_per_launch(const TimingReport& report, bool resident);

}  // namespace threadmap

namespace threadmap {

// The bars to draw for a report: the GPU's stages (per launch; with `resident` the copies
// are shared out over the repeats; with `first_launch` the first launch's cost first) and
// the CPU's, each label naming its origin. axis_seconds: the longest bar.
std::vector<TimingBar> timing_bars(const TimingReport& report, bool resident, bool first_launch, double& axis_seconds);

}  // namespace threadmap
