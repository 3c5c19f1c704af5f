// The window's "Where does it break?": the awkward launches of the kernel on the map
// (launch_sweep.hpp), run off the UI thread so the window stays responsive while each runs
// (a learner's kernel in its child process, up to its time limit).
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "app/launch/launch_options.hpp"
#include "app/reports/launch_sweep.hpp"

namespace threadmap {

struct LaunchSweepJob {
    ResolvedLaunch reference;  // the launch swept (keeps a learner's kernel alive)
    std::future<Outcome<LaunchSweep>> run;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::optional<LaunchSweep> result;  // the last finished sweep, of `reference`
    std::string error;                  // why the last one did not finish
    std::string expect;                 // the Editor kernel's expected result (--expect's statement), as typed

    bool running() const { return run.valid(); }
    ~LaunchSweepJob();  // a running sweep is cancelled (its child process killed)
};

// Starts a sweep of `launch`, cancelling one that runs; `expected`: what every launch's values
// are compared with (a learner's --expect), else the launch's own.
void start_launch_sweep(LaunchSweepJob& job, const ResolvedLaunch& launch,
                        std::optional<ModelLaunch> expected = std::nullopt);
// Collects a finished sweep (call once a frame).
void poll_launch_sweep(LaunchSweepJob& job);

}  // namespace threadmap
