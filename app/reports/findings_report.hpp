// Findings of the kernel model as JSON (`check --format json`; the README has the schema)
// and as text lines for a terminal.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "kernels/model/model_emulator.hpp"

namespace threadmap {

// {"kind", "threads": [{"block": [x,y,z], "thread": [x,y,z]}], "array", "index": [...],
//  "line", "message"} for each listed finding.
nlohmann::json findings_json(const ModelResult& result);
// {"out_of_bounds": n, …}: every finding, listed or not.
nlohmann::json finding_counts_json(const ModelResult& result);

// "500 write-write races, 500 read-write hazards" or "no findings"; `grouped_digits`: as the
// window writes large counts ("86,528 read-write hazards"), the command line's reports keeping
// plain digits.
std::string findings_summary(const std::array<uint64_t, kFindingKinds>& counts, bool grouped_digits = false);

}  // namespace threadmap
