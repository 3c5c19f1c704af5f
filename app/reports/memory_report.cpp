// The memory view as JSON, CSV and text; see memory_report.hpp.
#include "app/reports/memory_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "kernels/core/number_text.hpp"

namespace threadmap {

const char* const kMemoryModelNote =
    "the emulator's model of the memory system, counted as Nsight Compute counts it: a request is one execution "
    "of an access site by the active lanes of a warp; global sectors are the distinct 32-byte sectors a request "
    "touches (arrays 256-byte aligned); shared wavefronts are the most distinct 4-byte words one of the 32 banks "
    "serves (a request of 8-byte accesses: in each half-warp, of 16-byte ones: in each quarter-warp, summed); a "
    "__constant__ array's requests cost their distinct addresses, served one at a time; atomics "
    "and out-of-bounds accesses are "
    "not counted";

namespace {

nlohmann::json number_or_null(std::optional<double> v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

std::string fixed(std::optional<double> v, int digits = 2) { return v ? decimals(*v, digits) : "-"; }

// Sectors above the ideal, in percent of the ideal.
std::optional<double> excess_percent(uint64_t sectors, uint64_t ideal) {
    if (ideal == 0) return std::nullopt;
    return 100.0 * (double(sectors) - double(ideal)) / double(ideal);
}

nlohmann::json launch_json(const ModelLaunch& model_launch) {
    return {{"grid", {model_launch.launch.grid.x, model_launch.launch.grid.y, model_launch.launch.grid.z}},
            {"block", {model_launch.launch.block.x, model_launch.launch.block.y, model_launch.launch.block.z}}};
}

nlohmann::json global_totals_json(const MemoryTotals& t) {
    return {{"requests", t.requests},
            {"sectors", t.sectors},
            {"ideal_sectors", t.ideal_sectors},
            {"sectors_per_request", number_or_null(per_request(t.sectors, t.requests))}};
}

nlohmann::json shared_totals_json(const MemoryTotals& t) {
    return {{"requests", t.requests},
            {"wavefronts", t.wavefronts},
            {"ideal_wavefronts", t.ideal_wavefronts},
            {"conflict_ways_max", t.requests ? nlohmann::json(t.conflict_ways_max) : nlohmann::json(nullptr)}};
}

nlohmann::json constant_totals_json(const MemoryTotals& t) {
    return {{"requests", t.requests},
            {"addresses", t.constant_addresses},
            {"addresses_per_request", number_or_null(per_request(t.constant_addresses, t.requests))},
            {"addresses_max", t.requests ? nlohmann::json(t.constant_addresses_max) : nlohmann::json(nullptr)}};
}

}  // namespace

SiteCost site_cost(const MemorySite& s) {
    switch (s.space) {
        case MemorySpace::Shared:
            return {s.wavefronts, s.ideal_wavefronts, "wavefronts"};
        case MemorySpace::Constant:
            return {s.constant_addresses, s.requests, "addresses"};
        case MemorySpace::Global:
            break;
    }
    return {s.sectors, s.ideal_sectors, "sectors"};
}

std::optional<double> per_request(uint64_t amount, uint64_t requests) {
    if (requests == 0) return std::nullopt;
    return double(amount) / double(requests);
}

nlohmann::json memory_json(const ModelLaunch& model_launch, const std::vector<MemorySite>& sites) {
    nlohmann::json rows = nlohmann::json::array();
    for (const MemorySite& s : sites) {
        const bool global = s.space == MemorySpace::Global, shared = s.space == MemorySpace::Shared,
                   constant = s.space == MemorySpace::Constant;
        const auto null = nlohmann::json(nullptr);
        rows.push_back(
            {{"line", s.line},
             {"op", access_op_name(s.op)},
             {"space", memory_space_name(s.space)},
             {"array", model_launch.spec->arrays[s.array].name},
             {"access_bytes", s.access_bytes},
             {"requests", s.requests},
             {"sectors", global ? nlohmann::json(s.sectors) : null},
             {"ideal_sectors", global ? nlohmann::json(s.ideal_sectors) : null},
             {"sectors_per_request", global ? number_or_null(per_request(s.sectors, s.requests)) : null},
             {"excess_percent", global ? number_or_null(excess_percent(s.sectors, s.ideal_sectors)) : null},
             {"wavefronts", shared ? nlohmann::json(s.wavefronts) : null},
             {"ideal_wavefronts", shared ? nlohmann::json(s.ideal_wavefronts) : null},
             {"conflict_ways_max", shared ? nlohmann::json(s.conflict_ways_max) : null},
             {"addresses", constant ? nlohmann::json(s.constant_addresses) : null},
             {"addresses_per_request", constant ? number_or_null(per_request(s.constant_addresses, s.requests)) : null},
             {"addresses_max", constant ? nlohmann::json(s.constant_addresses_max) : null},
             {"active_lanes_mean", number_or_null(per_request(s.active_lanes, s.requests))}});
    }
    return {{"kernel", model_launch.spec->name},
            {"launch", launch_json(model_launch)},
            {"sites", rows},
            {"totals",
             {{"global_load", global_totals_json(memory_totals(sites, MemorySpace::Global, AccessOp::Load))},
              {"global_store", global_totals_json(memory_totals(sites, MemorySpace::Global, AccessOp::Store))},
              {"shared_load", shared_totals_json(memory_totals(sites, MemorySpace::Shared, AccessOp::Load))},
              {"shared_store", shared_totals_json(memory_totals(sites, MemorySpace::Shared, AccessOp::Store))},
              {"constant_load", constant_totals_json(memory_totals(sites, MemorySpace::Constant, AccessOp::Load))}}},
            {"model", kMemoryModelNote}};
}

std::string memory_csv(const ModelLaunch& model_launch, const std::vector<MemorySite>& sites) {
    std::string out =
        "line,op,space,array,requests,sectors,ideal_sectors,sectors_per_request,wavefronts,conflict_ways_max,"
        "active_lanes_mean,access_bytes,addresses\n";
    for (const MemorySite& s : sites) {
        const bool global = s.space == MemorySpace::Global, shared = s.space == MemorySpace::Shared;
        out += std::to_string(s.line) + "," + access_op_name(s.op) + "," + memory_space_name(s.space) + "," +
               model_launch.spec->arrays[s.array].name + "," + std::to_string(s.requests) + "," +
               (global ? std::to_string(s.sectors) : "") + "," + (global ? std::to_string(s.ideal_sectors) : "") + "," +
               (global ? fixed(per_request(s.sectors, s.requests), 4) : "") + "," +
               (shared ? std::to_string(s.wavefronts) : "") + "," +
               (shared ? std::to_string(s.conflict_ways_max) : "") + "," +
               fixed(per_request(s.active_lanes, s.requests), 4) + "," + std::to_string(s.access_bytes) + "," +
               (s.space == MemorySpace::Constant ? std::to_string(s.constant_addresses) : "") + "\n";
    }
    return out;
}

std::string memory_text(const ModelLaunch& model_launch, const std::vector<MemorySite>& sites) {
    char row[256];
    std::string out = model_launch.spec->name + " on grid " + to_string(model_launch.launch.grid) + ", block " +
                      to_string(model_launch.launch.block) + "\n";
    std::snprintf(row, sizeof row, "%5s  %-5s  %-8s  %-8s %5s %10s %12s %10s %9s %8s %7s\n", "line", "op", "space",
                  "array", "bytes", "requests", "sect|wf|addr", "ideal", "per req", "excess", "lanes");
    out += row;
    for (const MemorySite& s : sites) {
        const auto [amount, ideal, unit] = site_cost(s);
        const auto excess = excess_percent(amount, ideal);
        std::snprintf(row, sizeof row, "%5d  %-5s  %-8s  %-8s %5u %10llu %12llu %10llu %9s %7s%% %7s\n", s.line,
                      access_op_name(s.op), memory_space_name(s.space), model_launch.spec->arrays[s.array].name.c_str(),
                      s.access_bytes, (unsigned long long)s.requests, (unsigned long long)amount,
                      (unsigned long long)ideal, fixed(per_request(amount, s.requests)).c_str(),
                      fixed(excess, 0).c_str(), fixed(per_request(s.active_lanes, s.requests), 1).c_str());
        out += row;
    }
    if (sites.empty()) out += "(no loads or stores)\n";
    out += "\n";
    for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
        const MemoryTotals g = memory_totals(sites, MemorySpace::Global, op);
        if (g.requests)
            out += std::string("global ") + access_op_name(op) + "s: " + fixed(per_request(g.sectors, g.requests)) +
                   " sectors per request (" + std::to_string(g.sectors) + " sectors, " + std::to_string(g.requests) +
                   " requests; " + fixed(per_request(g.ideal_sectors, g.requests)) + " would do)\n";
    }
    for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
        const MemoryTotals s = memory_totals(sites, MemorySpace::Shared, op);
        if (s.requests)
            out += std::string("shared ") + access_op_name(op) + "s: " + fixed(per_request(s.wavefronts, s.requests)) +
                   " wavefronts per request (" + std::to_string(s.wavefronts) + " wavefronts, " +
                   std::to_string(s.requests) + " requests; " + std::to_string(s.ideal_wavefronts) +
                   " with no conflict; at worst a " + std::to_string(s.conflict_ways_max) + "-way bank conflict)\n";
    }
    const MemoryTotals c = memory_totals(sites, MemorySpace::Constant, AccessOp::Load);
    if (c.requests)
        out += "constant loads: " + fixed(per_request(c.constant_addresses, c.requests)) +
               " distinct addresses per request (" + std::to_string(c.constant_addresses) + " addresses, " +
               std::to_string(c.requests) +
               " requests; 1.00 would do: the constant cache serves one address at a "
               "time; at worst " +
               std::to_string(c.constant_addresses_max) + " in one request)\n";
    out += std::string("(") + kMemoryModelNote + ")\n";
    return out;
}

}  // namespace threadmap
