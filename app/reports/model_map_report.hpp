// `threadmap map --array NAME --access write|read` (and any kernel only the model runs): the
// map of one global array of a kernel-model launch — per element the first thread that wrote
// (or read) it, by smallest global linear id, and how many threads did — with the findings.
// The element schema is `map`'s (README).
#pragma once

#include <cstdio>

#include "app/reports/map_report.hpp"
#include "kernels/model/model_emulator.hpp"

namespace threadmap {

struct ModelMapReport {
    const ModelLaunch& launch;
    const ModelResult& result;
    size_t array = 0;    // a global array of launch.spec
    bool reads = false;  // who read each element, not who wrote it
    bool include_elements = true;
};

// false when the stream failed.
bool write_model_map_report(std::FILE* out, const ModelMapReport& report, MapFormat format);

}  // namespace threadmap
