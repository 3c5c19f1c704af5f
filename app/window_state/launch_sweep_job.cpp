// The window's launch sweep; see launch_sweep_job.hpp.
#include "app/window_state/launch_sweep_job.hpp"

#include "app/launch/model_launch.hpp"

namespace threadmap {

LaunchSweepJob::~LaunchSweepJob() {
    if (cancel) *cancel = true;
}

void start_launch_sweep(LaunchSweepJob& job, const ResolvedLaunch& launch, ExpectationCompile expected) {
    if (job.cancel) *job.cancel = true;
    // Cancelled: its run stops at once (the panel offers no new sweep while one runs, so an
    // expectation's compile is not waited for here).
    if (job.run.valid()) job.run.wait();
    job.reference = launch;
    job.result.reset();
    job.error.clear();
    job.cancel = std::make_shared<std::atomic<bool>>(false);
    // The reference's kernel (and a learner's compiled code) stays alive in the copy.
    job.run = std::async(
        std::launch::async,
        [reference = launch, cancel = job.cancel, expected = std::move(expected)]() -> Outcome<LaunchSweep> {
            std::optional<ModelLaunch> expectation;
            if (expected) {
                Outcome<ModelLaunch> compiled = expected();
                if (cancel->load()) return cancellation();  // cancelled while it compiled
                if (!compiled.value) return failure_of(compiled);
                expectation = std::move(*compiled.value);
            }
            return sweep_launches(model_launch_for(reference), cancel.get(), expectation ? &*expectation : nullptr);
        });
}

void poll_launch_sweep(LaunchSweepJob& job) {
    using namespace std::chrono_literals;
    if (!job.run.valid() || job.run.wait_for(0s) != std::future_status::ready) return;
    Outcome<LaunchSweep> r = job.run.get();
    if (r.value)
        job.result = std::move(*r.value);
    else
        job.error = r.error;
}

}  // namespace threadmap
