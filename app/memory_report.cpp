// The memory view as JSON, CSV and text; see memory_report.hpp.
#include "memory_report.hpp"

#include <cstdio>

#include "number_text.hpp"

namespace threadmap {

const char* const kMemoryModelNote =
    "the emulator's model of the memory system, counted as Nsight Compute counts it: a request is one execution "
    "of an access site by the active lanes of a warp; global sectors are the distinct 32-byte sectors a request "
    "touches (arrays 256-byte aligned); shared wavefronts are the most distinct 4-byte words one of the 32 banks "
    "serves (a request of 8-byte accesses: in each half-warp, of 16-byte ones: in each quarter-warp, summed); atomics "
    "and out-of-bounds accesses are "
    "not counted";

namespace {

const char* space_name(MemorySpace s) { return s == MemorySpace::Global ? "global" : "shared"; }

nlohmann::json number_or_null(std::optional<double> v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

std::string fixed(std::optional<double> v, int digits = 2) { return v ? decimals(*v, digits) : "-"; }

// Sectors above the ideal, in percent of the ideal.
std::optional<double> excess_percent(uint64_t sectors, uint64_t ideal) {
    if (ideal == 0) return std::nullopt;
    return 100.0 * (double(sectors) - double(ideal)) / double(ideal);
}

nlohmann::json launch_json(const ModelLaunch& l) {
    return {{"grid", {l.launch.grid.x, l.launch.grid.y, l.launch.grid.z}},
            {"block", {l.launch.block.x, l.launch.block.y, l.launch.block.z}}};
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

}  // namespace

std::optional<double> per_request(uint64_t amount, uint64_t requests) {
    if (requests == 0) return std::nullopt;
    return double(amount) / double(requests);
}

nlohmann::json memory_json(const ModelLaunch& l, const std::vector<MemorySite>& sites) {
    nlohmann::json rows = nlohmann::json::array();
    for (const MemorySite& s : sites) {
        const bool global = s.space == MemorySpace::Global;
        const auto null = nlohmann::json(nullptr);
        rows.push_back({{"line", s.line},
                        {"op", access_op_name(s.op)},
                        {"space", space_name(s.space)},
                        {"array", l.spec->arrays[s.array].name},
                        {"access_bytes", s.access_bytes},
                        {"requests", s.requests},
                        {"sectors", global ? nlohmann::json(s.sectors) : null},
                        {"ideal_sectors", global ? nlohmann::json(s.ideal_sectors) : null},
                        {"sectors_per_request", global ? number_or_null(per_request(s.sectors, s.requests)) : null},
                        {"excess_percent", global ? number_or_null(excess_percent(s.sectors, s.ideal_sectors)) : null},
                        {"wavefronts", global ? null : nlohmann::json(s.wavefronts)},
                        {"ideal_wavefronts", global ? null : nlohmann::json(s.ideal_wavefronts)},
                        {"conflict_ways_max", global ? null : nlohmann::json(s.conflict_ways_max)},
                        {"active_lanes_mean", number_or_null(per_request(s.active_lanes, s.requests))}});
    }
    return {{"kernel", l.spec->name},
            {"launch", launch_json(l)},
            {"sites", rows},
            {"totals",
             {{"global_load", global_totals_json(memory_totals(sites, MemorySpace::Global, AccessOp::Load))},
              {"global_store", global_totals_json(memory_totals(sites, MemorySpace::Global, AccessOp::Store))},
              {"shared_load", shared_totals_json(memory_totals(sites, MemorySpace::Shared, AccessOp::Load))},
              {"shared_store", shared_totals_json(memory_totals(sites, MemorySpace::Shared, AccessOp::Store))}}},
            {"model", kMemoryModelNote}};
}

std::string memory_csv(const ModelLaunch& l, const std::vector<MemorySite>& sites) {
    std::string out =
        "line,op,space,array,requests,sectors,ideal_sectors,sectors_per_request,wavefronts,conflict_ways_max,"
        "active_lanes_mean,access_bytes\n";
    for (const MemorySite& s : sites) {
        const bool global = s.space == MemorySpace::Global;
        out += std::to_string(s.line) + "," + access_op_name(s.op) + "," + space_name(s.space) + "," +
               l.spec->arrays[s.array].name + "," + std::to_string(s.requests) + "," +
               (global ? std::to_string(s.sectors) : "") + "," + (global ? std::to_string(s.ideal_sectors) : "") + "," +
               (global ? fixed(per_request(s.sectors, s.requests), 4) : "") + "," +
               (global ? "" : std::to_string(s.wavefronts)) + "," +
               (global ? "" : std::to_string(s.conflict_ways_max)) + "," +
               fixed(per_request(s.active_lanes, s.requests), 4) + "," + std::to_string(s.access_bytes) + "\n";
    }
    return out;
}

std::string memory_text(const ModelLaunch& l, const std::vector<MemorySite>& sites) {
    char row[256];
    std::string out =
        l.spec->name + " on grid " + to_string(l.launch.grid) + ", block " + to_string(l.launch.block) + "\n";
    std::snprintf(row, sizeof row, "%5s  %-5s  %-6s  %-8s %5s %10s %12s %10s %9s %8s %7s\n", "line", "op", "space",
                  "array", "bytes", "requests", "sectors|wf", "ideal", "per req", "excess", "lanes");
    out += row;
    for (const MemorySite& s : sites) {
        const bool global = s.space == MemorySpace::Global;
        const uint64_t amount = global ? s.sectors : s.wavefronts;
        const uint64_t ideal = global ? s.ideal_sectors : s.ideal_wavefronts;
        const auto excess = excess_percent(amount, ideal);
        std::snprintf(row, sizeof row, "%5d  %-5s  %-6s  %-8s %5u %10llu %12llu %10llu %9s %7s%% %7s\n", s.line,
                      access_op_name(s.op), space_name(s.space), l.spec->arrays[s.array].name.c_str(), s.access_bytes,
                      (unsigned long long)s.requests, (unsigned long long)amount, (unsigned long long)ideal,
                      fixed(per_request(amount, s.requests)).c_str(), fixed(excess, 0).c_str(),
                      fixed(per_request(s.active_lanes, s.requests), 1).c_str());
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
    out += std::string("(") + kMemoryModelNote + ")\n";
    return out;
}

}  // namespace threadmap
