// A kernel-model map's counts for one array — the same LaunchStats the tutorial's kernels
// report, so `map`, render's caption and the Stats tab read alike for every kernel. Active
// threads are those that wrote the array (read it, for a read map); the idle ones are the
// rest of the launch, or of the one block whose copy a __shared__ array's map shows.
#pragma once

#include "kernels/model/model_emulator.hpp"
#include "kernels/core/thread_map.hpp"

namespace threadmap {

LaunchStats model_array_stats(const ModelResult& result, size_t array, bool reads, const LaunchConfig& launch,
                              bool shared);

}  // namespace threadmap
