// The memory view of a launch (kernels/model/memory_view.hpp) as `threadmap memory` prints
// it: JSON (a contract for scripts; the README has the schema), CSV (one row per site) and a
// table for a terminal.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "kernels/model/model_emulator.hpp"

namespace threadmap {

// What the figures are, in one sentence (the UI and README say the same).
extern const char* const kMemoryModelNote;

// `sites`: a MemoryView's, as the model lists them.
nlohmann::json memory_json(const ModelLaunch& launch, const std::vector<MemorySite>& sites);
std::string memory_csv(const ModelLaunch& launch, const std::vector<MemorySite>& sites);
std::string memory_text(const ModelLaunch& launch, const std::vector<MemorySite>& sites);

// "28.57 sectors per request (4 would do)" style figures: a ratio, or null/"-" when no request.
std::optional<double> per_request(uint64_t amount, uint64_t requests);

// A site's cost, its ideal and their unit: sectors (global), wavefronts (shared), or distinct
// addresses (constant: 1 a request, a broadcast).
struct SiteCost {
    uint64_t amount = 0, ideal = 0;
    const char* unit = "sectors";
};
SiteCost site_cost(const MemorySite& s);

}  // namespace threadmap
