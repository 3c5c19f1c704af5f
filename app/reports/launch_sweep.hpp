// "Where my kernel breaks": a kernel run over awkward launches — n not a multiple of the
// block, a single block, many small blocks, a 2-D and a 3-D block, a grid smaller than the
// data — each compared with the learner's own launch (the reference): the values its written
// arrays end with, element by element, and its findings. The question GPU-Puzzles users ask
// most: "my solution passes on the demo size but is wrong".
#pragma once

#include <array>
#include <atomic>
#include <string>
#include <vector>

#include "kernels/model/model_emulator.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

struct SweptLaunch {
    std::string why;  // "a single block", "a grid smaller than the data", …
    LaunchConfig launch;
    std::string error;  // the run failed (an invalid launch, a crash, the time limit): why
    std::array<uint64_t, kFindingKinds> counts{};
    uint64_t compared = 0;          // elements of written arrays compared with the reference's
    uint64_t differing = 0;         // of those, the ones that end with another value
    std::string first_difference;   // "a[499] is 0, the reference launch leaves 1" (or "the expected result is 1")
    bool findings_changed = false;  // counts of some kind differ from the reference's
    bool agrees() const;            // ran, same values, same findings as the reference
};

struct LaunchSweep {
    std::array<uint64_t, kFindingKinds> reference_counts{};
    // Compared with an expectation (--expect): values with its results and findings with none,
    // the learner's own launch first among `launches` ("your launch").
    bool expected = false;
    std::vector<SweptLaunch> launches;
    std::vector<std::string> not_compared;  // written arrays whose shape follows the launch
};

// The awkward launches for a kernel whose reference launch is `reference` (each valid on a
// GPU: at most 1,024 threads per block; duplicates of the reference left out).
std::vector<std::pair<std::string, LaunchConfig>> awkward_launches(const KernelSpec& spec, const Params& params,
                                                                   const LaunchConfig& reference);

// Error: the reference launch itself (or the expectation) did not run, or `cancel` was set.
// `expected`: a one-thread launch whose arrays are the right results (--expect), or null.
Outcome<LaunchSweep> sweep_launches(const ModelLaunch& reference, const std::atomic<bool>* cancel = nullptr,
                                    const ModelLaunch* expected = nullptr);

// One line of the sweep as a learner reads it, after "same" or "DIFFERS": "a single block
// (grid (1,1,1), block (256,1,1)): 244 of 500 elements differ (a[256] is 0, …)".
std::string swept_launch_text(const SweptLaunch& launch);

}  // namespace threadmap
