// `threadmap map` output: a readable table, CSV or JSON of who touched what, and the stats.
// The JSON and CSV layouts are a contract that scripts rely on (see README.md).
#pragma once

#include "kernels/model/model_emulator.hpp"

#include <cstdio>
#include <string>

#include "kernels/emulator/cpu_emulator.hpp"

namespace threadmap {

enum class MapFormat { Table, Csv, Json };

struct MapReport {
    const Workload& workload;
    const LaunchResult& result;
    std::string backend;  // "cpu-emulator", …
    bool include_elements = true;
    // The kernel model's findings for the launch (JSON only); null with `findings_not_checked`
    // saying why when the model could not run it.
    const ModelResult* findings = nullptr;
    std::string findings_not_checked;
};

// The table shows elements only up to this many; above it, stats alone.
inline constexpr uint64_t kTableElementLimit = 1024;

// Writes the report; false when the stream failed (disk full, closed pipe).
bool write_map_report(std::FILE* out, const MapReport& report, MapFormat format);

}  // namespace threadmap
