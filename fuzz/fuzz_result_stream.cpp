// Fuzz target: the result stream a learner's kernel's process writes (it runs hostile code, so
// the stream may be anything). An honest result of a real launch, overwritten where the input
// says, is read back: it is refused, or it fits its launch, and then every report of it (the
// map as JSON, CSV and table, the findings, the memory view) is written without a crash.
// Input: byte 0 picks the launch; then (offset: 2 bytes, value: 1 byte) triples overwrite the
// honest bytes; an input starting with 'R' after byte 0 is the whole stream instead.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "kernels/builtin/registry.hpp"
#include "app/reports/findings_report.hpp"
#include "app/reports/memory_report.hpp"
#include "kernels/model/model_result_io.hpp"
#include "app/reports/model_map_report.hpp"

using namespace threadmap;

namespace {

struct Case {
    ModelLaunch launch;
    std::string honest;
};

// A few launches of the registry's kernels: barriers, shared memory, atomics, 2-D arrays, a
// partial block, the memory view with kept requests.
const Case& case_for(uint8_t pick) {
    static std::map<int, Case> cases;
    const int which = pick % 4;
    auto it = cases.find(which);
    if (it != cases.end()) return it->second;
    Case c;
    ModelLaunch& model_launch = c.launch;
    switch (which) {
        case 0:
            model_launch.spec = find_builtin_kernel("increment");
            model_launch.params = {50};
            model_launch.launch = {{2, 1, 1}, {32, 1, 1}};
            break;
        case 1:
            model_launch.spec = find_builtin_kernel("matmul-tiled-nosync");
            model_launch.params = {20, 20, 20, 20, 20};
            model_launch.launch = {{2, 2, 1}, {16, 16, 1}};
            model_launch.shared_block = 1;
            break;
        case 2:
            model_launch.spec = find_builtin_kernel("histogram-racy");
            model_launch.params = {100, 8};
            model_launch.launch = {{1, 1, 1}, {64, 1, 1}};
            break;
        default:
            model_launch.spec = find_builtin_kernel("transpose-tiled");
            model_launch.params = {40, 24};
            model_launch.launch = {{2, 3, 1}, {16, 16, 1}};
            model_launch.record_requests = true;
            model_launch.keep_requests = 1;
            break;
    }
    const auto r = run_model(model_launch);
    if (!r.value || !check_result_fits(*r.value, model_launch).done()) __builtin_trap();  // an honest result must fit
    c.honest = serialize_result(*r.value);
    return cases.emplace(which, std::move(c)).first->second;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const Case& c = case_for(data[0]);
    std::string bytes;
    if (size > 1 && data[1] == 'R') {
        bytes.assign(reinterpret_cast<const char*>(data) + 2, size - 2);
    } else {
        bytes = c.honest;
        for (size_t i = 1; i + 3 <= size; i += 3) {
            const size_t at = (size_t(data[i]) << 8 | data[i + 1]) % bytes.size();
            bytes[at] = char(data[i + 2]);
        }
    }
    if (bytes.size() > largest_result_bytes(c.launch)) return 0;  // the reader stops there
    const auto r = deserialize_result(bytes);
    if (!r || !check_result_fits(*r, c.launch).done()) return 0;
    static std::FILE* sink = std::fopen("/dev/null", "w");
    for (size_t a = 0; a < c.launch.spec->arrays.size(); ++a) {
        if (c.launch.spec->arrays[a].space == MemorySpace::Shared) continue;
        for (MapFormat f : {MapFormat::Json, MapFormat::Csv, MapFormat::Table})
            for (bool reads : {false, true})
                write_model_map_report(sink, ModelMapReport{c.launch, *r, a, reads, true}, f);
    }
    const std::string findings = findings_json(*r).dump() + finding_counts_json(*r).dump();
    if (r->memory) {
        const std::string memory = memory_json(c.launch, r->memory->sites).dump() +
                                   memory_csv(c.launch, r->memory->sites) + memory_text(c.launch, r->memory->sites);
        std::fwrite(memory.data(), 1, memory.size(), sink);
    }
    std::fwrite(findings.data(), 1, findings.size(), sink);
    return 0;
}
