// `threadmap occupancy` as a script uses it: the JSON contract's fields, the tutorial's
// 32-thread blocks at 50% on an H200 with the block limit named, waves, the kernel's own
// registers and shared memory (or the learner's), and exit 2 with a message for bad input.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"

using nlohmann::json;

namespace {

json occupancy_json(std::vector<std::string> args) {
    args.insert(args.begin(), "occupancy");
    args.push_back("--json");
    const RunResult r = run_threadmap(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return json::parse(r.out);
}

}  // namespace

TEST_CASE("occupancy: the tutorial's 32 threads per block fill half an H200 SM - the block limit binds") {
    const RunResult text = run_threadmap({"occupancy", "--preset", "seed-increment", "--device-profile", "h200"});
    REQUIRE_MESSAGE(text.exit_code == 0, text.err);
    CHECK(text.out.find("occupancy 50%") != std::string::npos);
    CHECK(text.out.find("an SM holds at most 32 blocks") != std::string::npos);
    CHECK(text.out.find("CUDA does not document the real order") != std::string::npos);

    const json j = occupancy_json({"--preset", "seed-increment", "--device-profile", "h200"});
    for (const char* key : {"compute_capability", "sms", "block_size", "registers_per_thread", "shared_bytes_per_block",
                            "active_blocks_per_sm", "active_warps_per_sm", "max_warps_per_sm", "occupancy", "limiter",
                            "blocks", "slots", "waves", "last_wave_fill"})
        CHECK_MESSAGE(j.contains(key), key);
    CHECK(j["compute_capability"] == "9.0");
    CHECK(j["sms"] == 132);
    CHECK(j["block_size"] == 32);
    CHECK(j["registers_per_thread"] == 8);  // nvcc's figure for sm_90
    CHECK(j["shared_bytes_per_block"] == 0);
    CHECK(j["active_blocks_per_sm"] == 32);
    CHECK(j["active_warps_per_sm"] == 32);
    CHECK(j["max_warps_per_sm"] == 64);
    CHECK(j["occupancy"] == 0.5);
    CHECK(j["limiter"] == "blocks");
    CHECK(j["blocks"] == 16);  // 500 elements in blocks of 32
    CHECK(j["slots"] == 32 * 132);
    CHECK(j["waves"] == 1);
    CHECK(j["last_wave_fill"].get<double>() == doctest::Approx(16.0 / 4224));
}

TEST_CASE("occupancy: shared memory and registers - the kernel's own or the learner's - and waves past one") {
    // matmul-tiled: two 16x16 float tiles = 2048 bytes per block.
    json j = occupancy_json({"--kernel", "matmul-tiled", "--rows", "1024", "--cols", "1024", "--inner", "64", "--cc",
                             "8.6", "--sms", "16"});
    CHECK(j["shared_bytes_per_block"] == 2048);
    CHECK(j["allocated_shared_bytes_per_block"] == 3072);  // + the 1 KB reserve
    CHECK(j["blocks"] == 4096);
    CHECK(j["active_blocks_per_sm"] == 6);  // 48 warps / 8 per block
    CHECK(j["waves"] == 43);                // 4096 / 96 slots
    CHECK(j["last_wave_fill"].get<double>() == doctest::Approx((4096 - 42 * 96) / 96.0));
    // 40 KB per block: the 100 KB carveout of an 8.6 SM holds two (41984 bytes each).
    j = occupancy_json({"--kernel", "matmul-tiled", "--rows", "1024", "--cols", "1024", "--inner", "64", "--cc", "8.6",
                        "--sms", "16", "--shared-bytes", "40960"});
    CHECK(j["active_blocks_per_sm"] == 2);
    CHECK(j["limiter"] == "shared_memory");
    CHECK(j["shared_origin"] == "given (--shared-bytes)");
    // 128 registers per thread × 256 threads: 4096 per warp, 4 warps per quarter, 2 blocks.
    j = occupancy_json({"--kernel", "matmul-tiled", "--rows", "64", "--cols", "64", "--inner", "64", "--device-profile",
                        "h200", "--registers", "128"});
    CHECK(j["active_blocks_per_sm"] == 2);
    CHECK(j["limiter"] == "registers");
    CHECK(j["occupancy"] == 0.25);
    // A profile's SM count can be replaced.
    j = occupancy_json({"--preset", "seed-increment", "--device-profile", "h200", "--sms", "2"});
    CHECK(j["sms"] == 2);
    CHECK(j["slots"] == 64);
}

TEST_CASE("occupancy: bad input exits 2 with a message") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--preset", "seed-matmul", "--cc", "8.7", "--sms", "4"}, "choose 7.5, 8.0, 8.6, 8.9, 9.0, 10.0, 12.0"},
        {{"--preset", "seed-matmul", "--cc", "9.0"}, "--cc needs --sms"},
        {{"--preset", "seed-matmul", "--cc", "9.0", "--sms", "0"}, "--sms must be from 1"},
        {{"--preset", "seed-matmul", "--device-profile", "h200", "--cc", "9.0", "--sms", "4"}, "not both"},
        {{"--preset", "seed-matmul", "--device-profile", "nope"}, "unknown device profile"},
        {{"--preset", "seed-matmul", "--device-profile", "h200", "--registers", "256"}, "from 0 to 255"},
        {{"--preset", "seed-matmul", "--device-profile", "h200", "--registers", "-1"}, "--registers"},
        {{"--preset", "seed-matmul", "--device-profile", "h200", "--shared-bytes", "300000"},
         "cannot run on h200: 301056 bytes of shared memory"},
        {{"--preset", "seed-matmul", "--device-profile", "h200", "--registers", "255"}, "262144 registers per block"},
        {{"--kernel", "increment", "--n", "500", "--block", "2048", "--device-profile", "h200"}, "1024"},
        {{"--kernel", "nope", "--device-profile", "h200"}, "unknown kernel"},
    };
    for (const auto& [args, message] : cases) {
        std::vector<std::string> full = {"occupancy"};
        full.insert(full.end(), args.begin(), args.end());
        const RunResult r = run_threadmap(full);
        INFO(message);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(message) != std::string::npos);
        CHECK(r.out.empty());
    }
}

TEST_CASE("occupancy --preset of an occupancy lesson uses the lesson's GPU - --sweep adds the block sizes") {
    json j = occupancy_json({"--preset", "occupancy-wave-quantization"});
    CHECK(j["device"] == "h200");
    CHECK(j["waves"] == 2);
    j = occupancy_json({"--preset", "occupancy-small-blocks", "--sweep"});
    REQUIRE(j["sweep"].size() == 32);
    CHECK(j["sweep"][0]["block_size"] == 32);
    CHECK(j["sweep"][0]["occupancy"] == 0.5);
    CHECK(j["sweep"][1]["occupancy"] == 1.0);  // 64 threads: 32 blocks fill the 64 warp slots
    CHECK(j["sweep"][31]["block_size"] == 1024);
    CHECK(j["sweep"][31]["kernel_seconds"].is_number());
    // A registry kernel's sweep covers its own problem: 262,144 values, not its 8,192 bins.
    // At 256 threads, 1,024 blocks over 6 per SM × 132 SMs: 2 waves; the timing model prices it
    // from its arrays, as any kernel.
    j = occupancy_json({"--preset", "occupancy-shared-memory", "--sweep"});
    REQUIRE(j["sweep"].size() == 32);
    CHECK(j["sweep"][7]["block_size"] == 256);
    CHECK(j["sweep"][7]["blocks"] == 1024);
    CHECK(j["sweep"][7]["waves"] == 2);
    CHECK(j["sweep"][7]["kernel_seconds"].get<double>() > 0);
}
