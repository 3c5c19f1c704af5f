// A kernel-model map's counts; see model_array_stats.hpp.
#include "kernels/model/model_array_stats.hpp"

#include <algorithm>

namespace threadmap {

LaunchStats model_array_stats(const ModelResult& result, size_t array, bool reads, const LaunchConfig& launch,
                              bool shared) {
    const ArrayResult& a = result.arrays[array];
    LaunchStats s = shape_stats(launch);
    s.elements = a.records.size();
    for (const ElementRecord& e : a.records) {
        const uint32_t threads = reads ? e.readers : e.writers;
        s.elements_untouched += threads == 0;
        s.elements_multi += threads > 1;
    }
    s.threads_active = reads ? a.threads_reading : a.threads_writing;
    const uint64_t threads = shared ? launch.threads_per_block() : s.threads_launched;
    s.threads_idle = threads - std::min(threads, s.threads_active);
    return s;
}

}  // namespace threadmap
