// The memory view against an oracle written apart from kernels/model: for random launches of
// the tutorial's four kernels, copy-offset and transpose-naive, each thread's accesses are
// listed per instruction straight from the kernel's index formulas; a warp's n-th request of
// an instruction is the n-th access of each lane that has one; its sectors are the distinct
// byte addresses / 32 (4-byte elements, arrays at offset 0). Totals per (array, load|store)
// must equal the model's, request for request.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "tests/random_launch.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_emulator.hpp"

using namespace threadmap;

namespace {

struct Coords {
    uint64_t tx, ty, tz, bx, by, bz;
};

// One thread's accesses: (array, is_store) → elements in program order.
using Accesses = std::map<std::pair<std::string, bool>, std::vector<uint64_t>>;

struct Figures {
    uint64_t requests = 0, sectors = 0, lanes = 0;
    bool operator==(const Figures&) const = default;
};

Accesses thread_accesses(const std::string& kernel, const Params& p, const LaunchConfig& launch, const Coords& c) {
    Accesses a;
    const uint64_t gx = c.tx + c.bx * launch.block.x, gy = c.ty + c.by * launch.block.y;
    const auto rw = [&](const std::string& array, uint64_t e) {
        a[{array, false}].push_back(e);
        a[{array, true}].push_back(e);
    };
    if (kernel == "increment") {
        if (gx < p[0]) rw("a", gx);
    } else if (kernel == "increment-stride") {
        for (uint64_t pos = gx; pos < p[0]; pos += uint64_t(launch.block.x) * launch.grid.x) rw("a", pos);
    } else if (kernel == "copy-offset") {
        if (gx < p[0]) {
            a[{"in", false}].push_back(gx + p[1]);
            a[{"out", true}].push_back(gx);
        }
    } else if (kernel == "transpose-naive") {  // in rows×cols; x → column of in
        if (gx < p[1] && gy < p[0]) {
            a[{"in", false}].push_back(gy * p[1] + gx);
            a[{"out", true}].push_back(gx * p[0] + gy);
        }
    } else {  // matmul (x → row i) and matmul-xcol (x → column j); A rows×inner, B inner×cols
        const bool x_rows = kernel == "matmul";
        const uint64_t i = x_rows ? gx : gy, j = x_rows ? gy : gx, rows = p[0], cols = p[1], inner = p[2];
        if (i < rows && j < cols) {
            for (uint64_t k = 0; k < inner; ++k) {
                a[{"A", false}].push_back(i * inner + k);
                a[{"B", false}].push_back(k * cols + j);
            }
            a[{"C", true}].push_back(i * cols + j);
        }
    }
    return a;
}

std::map<std::pair<std::string, bool>, Figures> memory_oracle(const std::string& kernel, const Params& p,
                                                              const LaunchConfig& launch) {
    std::map<std::pair<std::string, bool>, Figures> out;
    const uint64_t tpb = launch.threads_per_block();
    for (uint64_t b = 0; b < launch.blocks(); ++b) {
        const uint64_t bx = b % launch.grid.x, by = b / launch.grid.x % launch.grid.y,
                       bz = b / (uint64_t(launch.grid.x) * launch.grid.y);
        for (uint64_t first = 0; first < tpb; first += 32) {
            std::vector<Accesses> lanes;
            for (uint64_t t = first; t < std::min(first + 32, tpb); ++t) {
                const Coords c{t % launch.block.x,
                               t / launch.block.x % launch.block.y,
                               t / (uint64_t(launch.block.x) * launch.block.y),
                               bx,
                               by,
                               bz};
                lanes.push_back(thread_accesses(kernel, p, launch, c));
            }
            std::set<std::pair<std::string, bool>> instructions;
            for (const Accesses& a : lanes)
                for (const auto& [key, list] : a) instructions.insert(key);
            for (const auto& key : instructions) {
                for (size_t n = 0;; ++n) {
                    std::set<uint64_t> sectors;
                    uint64_t active = 0;
                    for (const Accesses& a : lanes) {
                        const auto it = a.find(key);
                        if (it == a.end() || it->second.size() <= n) continue;
                        ++active;
                        sectors.insert(it->second[n] * 4 / 32);
                    }
                    if (active == 0) break;
                    Figures& f = out[key];
                    ++f.requests;
                    f.sectors += sectors.size();
                    f.lanes += active;
                }
            }
        }
    }
    return out;
}

std::map<std::pair<std::string, bool>, Figures> model(const KernelSpec& spec, const Params& p,
                                                      const LaunchConfig& launch) {
    ModelLaunch model_launch{&spec, p, launch};
    model_launch.record_requests = true;
    model_launch.record_elements = false;
    const auto r = run_model(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    std::map<std::pair<std::string, bool>, Figures> out;
    for (const MemorySite& s : r.value->memory->sites) {
        Figures& f = out[{spec.arrays[s.array].name, s.op == AccessOp::Store}];
        f.requests += s.requests;
        f.sectors += s.sectors;
        f.lanes += s.active_lanes;
    }
    return out;
}

}  // namespace

TEST_CASE("the memory view equals an independent oracle on 240 random launches of six kernels") {
    RandomLaunches random(20261130);
    const char* kernels[] = {"increment",   "increment-stride", "matmul",
                             "matmul-xcol", "copy-offset",      "transpose-naive"};
    for (int trial = 0; trial < random_trials(240); ++trial) {
        const std::string name = kernels[trial % 6];
        const KernelSpec& spec = *find_builtin_kernel(name);
        LaunchConfig launch = random.launch(trial);
        Params p;
        if (name == "matmul" || name == "matmul-xcol") {
            const uint64_t rows = random.pick(1, 80), cols = random.pick(1, 80);
            p = {rows, cols, random.pick(1, 6), rows, cols};
        } else if (name == "copy-offset") {
            p = {random.pick(1, 3000), random.pick(0, 40)};
        } else if (name == "transpose-naive") {
            p = {random.pick(1, 90), random.pick(1, 90)};
        } else {
            p = {random.pick(1, 5000)};
        }
        CAPTURE(name);
        CAPTURE(trial);
        CAPTURE(to_string(launch.grid));
        CAPTURE(to_string(launch.block));
        const auto expected = memory_oracle(name, p, launch);
        const auto got = model(spec, p, launch);
        REQUIRE(got.size() == expected.size());
        for (const auto& [key, f] : expected) {
            CAPTURE(key.first);
            CAPTURE(key.second);
            REQUIRE(got.count(key) == 1);
            CHECK(got.at(key).requests == f.requests);
            CHECK(got.at(key).sectors == f.sectors);
            CHECK(got.at(key).lanes == f.lanes);
        }
    }
}
