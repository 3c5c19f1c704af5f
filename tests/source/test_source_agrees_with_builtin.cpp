// Truth between the two ways of writing a kernel: each built-in kernel's CUDA text (what the
// Code panel shows and "edit" opens), compiled by the embedded Clang, gives exactly the
// built-in body's values, per-element records and findings on 100 random launches, and its
// memory view on 25 of them (the compiler marks the text's loops, whose iterations group a
// warp's requests; a built-in body's loops are not marked, which gives the same requests where
// a lane skips no iteration but its last ones, as every built-in's).
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <tuple>

#include "tests/random_launch.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/kernel_host/isolated_run.hpp"
#include "kernels/source/source_binding.hpp"
#include "kernels/kernel_host/source_compiler.hpp"

using namespace threadmap;

namespace {

// Small problems: each parameter at most 64 (or its own minimum), one that follows another
// (matmul's A rows follow C's) following it.
Params random_params(const KernelSpec& spec, std::mt19937& rng) {
    Params p;
    for (const ParamSpec& s : spec.params) {
        if (s.default_from < p.size()) {
            p.push_back(p[s.default_from]);
            continue;
        }
        const uint64_t hi = std::max<uint64_t>(s.min, std::min<uint64_t>({s.max, s.default_value, 64}));
        p.push_back(std::uniform_int_distribution<uint64_t>(s.min, hi)(rng));
    }
    return p;
}

// The memory view's sites by line, load or store, and array name.
std::map<std::tuple<int, AccessOp, std::string>, MemorySite> sites_of(const KernelSpec& spec,
                                                                      const LaunchConfig& launch,
                                                                      const Params& params) {
    ModelLaunch model_launch{&spec, params, launch};
    model_launch.record_requests = true;
    model_launch.record_elements = false;
    const auto r = run_model_here(model_launch);
    REQUIRE_MESSAGE(r.value, r.error);
    std::map<std::tuple<int, AccessOp, std::string>, MemorySite> out;
    for (const MemorySite& s : r.value->memory->sites) out[{s.line, s.op, spec.arrays[s.array].name}] = s;
    return out;
}

bool same_counts(const MemorySite& a, const MemorySite& b) {
    return a.requests == b.requests && a.active_lanes == b.active_lanes && a.sectors == b.sectors &&
           a.ideal_sectors == b.ideal_sectors && a.wavefronts == b.wavefronts &&
           a.conflict_ways_max == b.conflict_ways_max;
}

bool same_records(const ElementRecord& a, const ElementRecord& b) {
    return a.first_writer == b.first_writer && a.writers == b.writers && a.stores == b.stores &&
           a.first_reader == b.first_reader && a.readers == b.readers;
}

}  // namespace

TEST_CASE("every built-in kernel's CUDA text, compiled, agrees with the built-in body on 100 random launches") {
    for (const KernelSpec* k : builtin_kernels()) {
        CAPTURE(k->name);
        const SourceCompile c = compile_source(k->cuda_source, k->name + ".cu");
        INFO(c.text);
        REQUIRE(c.source);
        REQUIRE(c.source->kernels.size() == 1);
        const SourceKernel& sk = c.source->kernels[0];
        std::mt19937 rng(11);
        RandomLaunches random(5);
        for (int trial = 0; trial < random_trials(100); ++trial) {
            CAPTURE(trial);
            const Params params = random_params(*k, rng);
            LaunchConfig launch = random.launch(trial);
            launch.grid.x = std::min(launch.grid.x, 6u);  // past a small problem's end: enough to find it
            if (trial % 4 == 0) launch = {k->covering_grid(params, k->default_block), k->default_block};
            CAPTURE(to_string(launch.grid));
            CAPTURE(to_string(launch.block));
            // Bind each pointer to the built-in's array of its name, each number to its parameter.
            std::vector<SourceBinding> binds;
            for (const SourceParam& p : sk.params) {
                SourceBinding b;
                b.name = p.name;
                if (p.pointer) {
                    const size_t a = k->array_index(p.name);
                    REQUIRE_MESSAGE(a < k->arrays.size(), "no array " << p.name);
                    b.array = true;
                    b.shape = k->arrays[a].shape(params, launch);
                } else {
                    // The histograms' text calls the bin count nbins (bins is the array).
                    const size_t i = k->param_index(p.name == "nbins" ? "bins" : p.name);
                    REQUIRE_MESSAGE(i < k->params.size(), "no parameter " << p.name);
                    b.value = std::to_string(params[i]);
                }
                binds.push_back(b);
            }
            // Dynamic shared memory: as much as the built-in's array of that name takes at this launch.
            SourceRunOptions run{false};
            for (const SourceSharedArray& a : sk.shared)
                if (a.dynamic)
                    run.dynamic_shared_bytes = k->arrays[k->array_index(a.name)].shape(params, launch)[0] * 4;
            const auto bound = bind_kernel(c.source, sk, binds, run);
            REQUIRE_MESSAGE(bound.value, bound.error);
            KernelSpec spec = (*bound.value)->spec;
            // The built-in's inputs; its outputs start at zero, as a learner's array does by default.
            spec.fill_input = [&](const Params&, size_t index, std::vector<uint32_t>& bits) {
                const size_t a = k->array_index(spec.arrays[index].name);
                if (k->arrays[a].role != ArrayRole::Output) k->fill_input(params, a, bits);
            };
            const auto built_in = run_model_here({k, params, launch});
            const auto typed = run_model_here({&spec, {}, launch});
            REQUIRE(built_in.value.has_value() == typed.value.has_value());
            if (!built_in.value) {
                CHECK(built_in.error == typed.error);
                continue;
            }
            const ModelResult& result = *built_in.value;
            const ModelResult& b = *typed.value;
            CHECK(result.counts == b.counts);
            CHECK(result.ended_early == b.ended_early);
            CHECK(result.accesses == b.accesses);
            REQUIRE(result.findings.size() == b.findings.size());
            for (size_t f = 0; f < result.findings.size(); ++f) {
                CHECK(result.findings[f].message == b.findings[f].message);
                CHECK(result.findings[f].line == b.findings[f].line);
            }
            for (size_t i = 0; i < k->arrays.size(); ++i) {
                if (k->arrays[i].space != MemorySpace::Global) continue;
                const size_t j = spec.array_index(k->arrays[i].name);
                CAPTURE(k->arrays[i].name);
                REQUIRE(j < spec.arrays.size());
                CHECK(result.arrays[i].bits == b.arrays[j].bits);
                CHECK(result.arrays[i].found == b.arrays[j].found);
                REQUIRE(result.arrays[i].records.size() == b.arrays[j].records.size());
                bool records = true;
                for (size_t e = 0; e < result.arrays[i].records.size(); ++e)
                    records = records && same_records(result.arrays[i].records[e], b.arrays[j].records[e]);
                CHECK(records);
            }
            if (trial % 4 == 1) {
                const auto built_in_sites = sites_of(*k, launch, params), typed_sites = sites_of(spec, launch, {});
                REQUIRE(built_in_sites.size() == typed_sites.size());
                for (const auto& [where, site] : built_in_sites) {
                    CAPTURE(std::get<0>(where));
                    CAPTURE(std::get<2>(where));
                    REQUIRE(typed_sites.count(where));
                    CHECK(same_counts(site, typed_sites.at(where)));
                }
            }
            if (result.counts != b.counts) break;  // one launch's story is enough
        }
    }
}
