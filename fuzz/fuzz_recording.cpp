// libFuzzer: a recording (bench --json) is accepted whole or refused with a field named;
// what is accepted writes back to JSON that reads again the same.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "app/reports/timing_report.hpp"

using namespace threadmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
    if (j.is_discarded()) return 0;
    const Outcome<TimingReport> r = parse_timing_report(j);
    if (!r.value) {
        if (r.error.empty()) __builtin_trap();  // a refusal says why
        return 0;
    }
    const nlohmann::json back = to_json(*r.value);
    const Outcome<TimingReport> again = parse_timing_report(back);
    if (!again.value || to_json(*again.value) != back) __builtin_trap();
    return 0;
}
