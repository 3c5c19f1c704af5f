// The occupancy calculator: cases worked by hand from cuda_occupancy.h's rules, then every
// combination of a sweep against the header itself where the CUDA toolkit is installed.
#include <doctest/doctest.h>

#include <climits>

#include "kernels/builtin/compiled_resources.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/model/model_emulator.hpp"
#include "kernels/occupancy/occupancy.hpp"

#ifdef THREADMAP_CUDA_OCCUPANCY_H
#include THREADMAP_CUDA_OCCUPANCY_H
#endif

using namespace threadmap;

namespace {

Occupancy occupancy(const char* cc, int block, int registers, uint64_t shared) {
    const SmProperties* sm = find_sm_properties(cc);
    REQUIRE(sm);
    return compute_occupancy(*sm, {registers, shared, 1}, block);
}

}  // namespace

TEST_CASE("occupancy by hand - each limiter - several compute capabilities") {
    // 9.0, 32 threads, 8 registers: 32 block slots bind first; 32 of 64 warps.
    Occupancy o = occupancy("9.0", 32, 8, 0);
    CHECK(o.active_blocks_per_sm == 32);
    CHECK(o.limiters == kLimitBlocks);
    CHECK(o.active_warps_per_sm == 32);
    CHECK(o.max_warps_per_sm == 64);
    CHECK(o.occupancy == doctest::Approx(0.5));
    CHECK(std::string(main_limiter_name(o.limiters)) == "blocks");
    // 9.0, 1024 threads, 32 registers: 64 warp slots / 32 = 2; registers 1024 per warp, 16 warps
    // per quarter of the register file, 64 warps / 32 = 2 as well.
    o = occupancy("9.0", 1024, 32, 0);
    CHECK(o.active_blocks_per_sm == 2);
    CHECK(o.limiters == (kLimitWarps | kLimitRegisters));
    CHECK(o.occupancy == doctest::Approx(1.0));
    // 9.0, 256 threads, 64 registers: 2048 per warp, 8 warps per quarter, 32 warps: 4 blocks.
    o = occupancy("9.0", 256, 64, 0);
    CHECK(o.active_blocks_per_sm == 4);
    CHECK(o.limiters == kLimitRegisters);
    CHECK(o.limit_warps == 8);
    CHECK(o.occupancy == doctest::Approx(0.5));
    CHECK(o.registers_per_block == 16384);
    // 8.6, 128 threads, 40 registers: 1280 per warp, 12 per quarter, 48 warps / 4 = 12 = 48 / 4.
    o = occupancy("8.6", 128, 40, 0);
    CHECK(o.active_blocks_per_sm == 12);
    CHECK(o.limiters == (kLimitWarps | kLimitRegisters));
    CHECK(o.max_warps_per_sm == 48);
    // 9.0, 48 KB shared: 49152 + the 1 KB reserve = 50176 per block; 233472 / 50176 = 4.
    o = occupancy("9.0", 256, 16, 49152);
    CHECK(o.allocated_shared_per_block == 50176);
    CHECK(o.shared_per_sm_config == 233472);
    CHECK(o.active_blocks_per_sm == 4);
    CHECK(o.limiters == kLimitSharedMemory);
    CHECK(o.occupancy == doctest::Approx(0.5));
    // 8.0, 100 KB shared (opted in): 103424 per block; the 164 KB carveout holds one.
    o = occupancy("8.0", 128, 16, 102400);
    CHECK(o.active_blocks_per_sm == 1);
    CHECK(o.limiters == kLimitSharedMemory);
    CHECK(o.occupancy == doctest::Approx(4.0 / 64));
    // 7.5: 16 block slots, 32 warps; 64 threads fill it with 16 blocks; no reserve, no barrier limit.
    o = occupancy("7.5", 64, 16, 0);
    CHECK(o.active_blocks_per_sm == 16);
    CHECK(o.limiters == (kLimitWarps | kLimitBlocks));
    CHECK(o.limit_shared == INT_MAX);
    CHECK(o.limit_barriers == INT_MAX);
    CHECK(o.occupancy == doctest::Approx(1.0));
    // 12.0: 24 block slots (the header's figure) and one barrier per block slot.
    o = occupancy("12.0", 32, 8, 0);
    CHECK(o.active_blocks_per_sm == 24);
    CHECK(o.limiters == (kLimitBlocks | kLimitBarriers));
    CHECK(o.occupancy == doctest::Approx(0.5));
    CHECK(std::string(main_limiter_name(o.limiters)) == "blocks");
    // Blocks that do not fit at all.
    o = occupancy("8.6", 128, 16, 102400);  // 103424 > 99 KB opt-in + 1 KB
    CHECK(o.active_blocks_per_sm == 0);
    CHECK(o.limit_shared == 0);
    CHECK(o.cannot_launch.find("103424 bytes of shared memory") != std::string::npos);
    o = occupancy("9.0", 1024, 255, 0);  // 8192 registers per warp × 32 warps > 65536
    CHECK(o.active_blocks_per_sm == 0);
    CHECK(o.limit_registers == 0);
    CHECK(o.cannot_launch.find("registers per block") != std::string::npos);
}

TEST_CASE("the limiter in words names the figure that binds") {
    const SmProperties& h = *find_sm_properties("9.0");
    Occupancy o = compute_occupancy(h, {8, 0, 1}, 32);
    CHECK(limiter_sentence(h, o, 32) ==
          "32 threads per block (1 warp): an SM holds at most 32 blocks on compute capability 9.0; 32 of its 64 warp "
          "slots stay empty");
    o = compute_occupancy(h, {64, 0, 1}, 256);
    CHECK(limiter_sentence(h, o, 256).find("16384 registers per block") == 0);
}

TEST_CASE("waves - 531 blocks fill 13% of one wave on 132 SMs - one block more than the slots takes two") {
    Waves w = compute_waves(531, 32, 132);
    CHECK(w.slots == 4224);
    CHECK(w.waves == 1);
    CHECK(w.last_wave_fill == doctest::Approx(531.0 / 4224));
    w = compute_waves(4225, 32, 132);
    CHECK(w.waves == 2);
    CHECK(w.last_wave_fill == doctest::Approx(1.0 / 4224));
    w = compute_waves(8448, 32, 132);
    CHECK(w.waves == 2);
    CHECK(w.last_wave_fill == doctest::Approx(1.0));
    CHECK(compute_waves(10, 0, 132).waves == 0);  // cannot launch: no slots, no waves
    // Blocks dealt round-robin: block 133 runs on SM 1 in the first wave, block 4224 starts wave 2.
    CHECK(place_block(133, 4224, 132).sm == 1);
    CHECK(place_block(133, 4224, 132).wave == 0);
    CHECK(place_block(4224, 4224, 132).wave == 1);
    CHECK(place_block(4224, 4224, 132).sm == 0);
}

TEST_CASE("the table - compute capabilities the build targets - with the 1 KB reserve from 8.0") {
    CHECK(sm_property_names() == "7.5, 8.0, 8.6, 8.9, 9.0, 10.0, 12.0");
    CHECK(find_sm_properties("9.0")->shared_per_sm == 233472);
    CHECK(find_sm_properties("12.0")->shared_per_block_optin == 101376);
    CHECK(find_sm_properties("7.5")->reserved_shared_per_block == 0);
    CHECK(find_sm_properties("8.6")->reserved_shared_per_block == 1024);
    CHECK(find_sm_properties("8.7") == nullptr);
    CHECK(find_sm_properties("9") == nullptr);
    CHECK(find_sm_properties(".0") == nullptr);
    CHECK(find_sm_properties("9.0x") == nullptr);
    CHECK(find_sm_properties("") == nullptr);
}

#ifdef THREADMAP_CUDA_OCCUPANCY_H
TEST_CASE("every combination of a sweep equals cuda_occupancy.h's cudaOccMaxActiveBlocksPerMultiprocessor") {
    long compared = 0;
    for (const SmProperties& sm : sm_property_table()) {
        cudaOccDeviceProp prop;
        prop.computeMajor = sm.major;
        prop.computeMinor = sm.minor;
        prop.maxThreadsPerBlock = sm.max_threads_per_block;
        prop.maxThreadsPerMultiprocessor = sm.max_threads_per_sm;
        prop.regsPerBlock = sm.regs_per_block;
        prop.regsPerMultiprocessor = sm.regs_per_sm;
        prop.warpSize = sm.warp_size;
        prop.sharedMemPerBlock = sm.shared_per_block;
        prop.sharedMemPerMultiprocessor = sm.shared_per_sm;
        prop.numSms = 100;
        prop.sharedMemPerBlockOptin = sm.shared_per_block_optin;
        prop.reservedSharedMemPerBlock = sm.reserved_shared_per_block;
        for (int block = 1; block <= 1024; block += block < 96 ? 1 : 31)
            for (int regs : {0, 1, 8, 16, 24, 32, 33, 40, 48, 56, 64, 72, 96, 128, 168, 200, 255, 256})
                for (uint64_t statics : {0u, 2048u})
                    for (uint64_t dynamic : {0u, 1u, 1000u, 4096u, 12345u, 40000u, 47104u, 49152u, 49153u, 65536u,
                                             98304u, 101376u, 102400u, 166912u, 200000u, 232448u, 240000u}) {
                        // What the runtime builds from cudaFuncAttributes, for a kernel that opted
                        // in to the dynamic shared memory it uses.
                        cudaOccFuncAttributes attr;
                        attr.maxThreadsPerBlock = 1024;
                        attr.numRegs = regs;
                        attr.sharedSizeBytes = statics;
                        attr.partitionedGCConfig = PARTITIONED_GC_OFF;
                        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
                        attr.maxDynamicSharedSizeBytes =
                            std::max<uint64_t>(dynamic, sm.shared_per_block - std::min(statics, sm.shared_per_block));
                        attr.numBlockBarriers = 1;
                        cudaOccDeviceState state;
                        cudaOccResult want;
                        REQUIRE(cudaOccMaxActiveBlocksPerMultiprocessor(&want, &prop, &attr, &state, block, dynamic) ==
                                CUDA_OCC_SUCCESS);
                        const Occupancy got = compute_occupancy(sm, {regs, statics + dynamic, 1}, block);
                        INFO("cc ", sm.name(), " block ", block, " registers ", regs, " shared ", statics, "+",
                             dynamic);
                        REQUIRE(got.active_blocks_per_sm == want.activeBlocksPerMultiprocessor);
                        REQUIRE(got.limiters == want.limitingFactors);
                        REQUIRE(got.limit_warps == want.blockLimitWarps);
                        REQUIRE(got.limit_registers == want.blockLimitRegs);
                        REQUIRE(got.limit_shared == want.blockLimitSharedMem);
                        REQUIRE(got.limit_blocks == want.blockLimitBlocks);
                        REQUIRE(got.limit_barriers == want.blockLimitBarriers);
                        REQUIRE(got.registers_per_block == want.allocatedRegistersPerBlock);
                        REQUIRE(got.allocated_shared_per_block == want.allocatedSharedMemPerBlock);
                        ++compared;
                    }
    }
    MESSAGE(compared, " launches compared with ", THREADMAP_CUDA_OCCUPANCY_H);
    CHECK(compared > 100000);
}
#endif

TEST_CASE("the compiler's static shared memory of each built-in kernel is within what its arrays use") {
    for (const KernelSpec* spec : builtin_kernels()) {
        Params p;
        for (const ParamSpec& param : spec->params)
            p.push_back(param.default_from < p.size() ? p[param.default_from] : param.default_value);
        for (const SmProperties& sm : sm_property_table()) {
            const CompiledResources* c = find_compiled_resources(spec->name, sm.sm());
            REQUIRE_MESSAGE(c, spec->name, " has no figures for sm_", sm.sm(), ": run scripts/kernel-resources.sh");
            CHECK(uint64_t(c->static_shared_bytes) <= shared_bytes_per_block(*spec, p, spec->default_block));
            CHECK(c->registers > 0);
            CHECK(c->barriers == (spec->uses_barriers ? 1 : 0));
        }
    }
}
