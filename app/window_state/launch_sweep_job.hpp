// The window's "Where does it break?": the awkward launches of the kernel on the map
// (launch_sweep.hpp), run off the UI thread so the window stays responsive while each runs
// (a learner's kernel in its child process, up to its time limit).
#pragma once

#include <atomic>
#include <functional>
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

// The launch of a learner's expected result (--expect's statement), compiled when called: in
// the sweep's job, not in a frame (a compile takes 50 ms and more; a hostile one its limit).
using ExpectationCompile = std::function<Outcome<ModelLaunch>()>;

// Starts a sweep of `launch`, cancelling one that runs; `expected`: what every launch's values
// are compared with (a learner's --expect), else the launch's own. An expectation that does not
// compile ends the sweep with its messages (LaunchSweepJob::error).
void start_launch_sweep(LaunchSweepJob& job, const ResolvedLaunch& launch, ExpectationCompile expected = {});
// Collects a finished sweep (call once a frame).
void poll_launch_sweep(LaunchSweepJob& job);

}  // namespace threadmap
