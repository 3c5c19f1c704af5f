// `threadmap check` and `threadmap kernels` as a script uses them: exit 0 with no findings,
// 3 with some, 2 for bad usage or an invalid launch; the JSON names each finding's kind,
// threads, array, element and line.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"

using nlohmann::json;

namespace {

struct Checked {
    int exit_code;
    json j;
};

Checked check_json(std::vector<std::string> args) {
    args.insert(args.begin(), "check");
    args.insert(args.end(), {"--format", "json"});
    const RunResult r = run_threadmap(args);
    REQUIRE_MESSAGE((r.exit_code == 0 || r.exit_code == 3), r.err);
    return {r.exit_code, json::parse(r.out)};
}

json thread(std::vector<unsigned> block, std::vector<unsigned> t) { return {{"block", block}, {"thread", t}}; }

}  // namespace

TEST_CASE("check: increment on a 2D block races on every element - the tutorial's launch does not") {
    const Checked race = check_json({"--kernel", "increment", "--n", "500", "--block", "32,2"});
    CHECK(race.exit_code == 3);
    CHECK(race.j["counts"]["write_write_race"] == 500);
    const json& first = race.j["findings"][0];
    CHECK(first["kind"] == "write_write_race");
    CHECK(first["threads"] == json::array({thread({0, 0, 0}, {0, 0, 0}), thread({0, 0, 0}, {0, 1, 0})}));
    CHECK(first["array"] == "a");
    CHECK(first["index"] == json::array({0}));
    CHECK(first["line"] == 4);
    // Each of the 1,000 threads with pos < 500 (both rows of each block) loads and stores a[pos].
    CHECK(race.j["accesses"] == 2000);
    const Checked lesson = check_json({"--preset", "race-2d-block"});  // the lesson of this race
    CHECK(lesson.exit_code == 3);
    CHECK(lesson.j["findings"][0] == race.j["findings"][0]);
    const Checked clean = check_json({"--preset", "seed-increment"});
    CHECK(clean.exit_code == 0);
    CHECK(clean.j["findings"] == json::array());
    CHECK(clean.j["launch"]["grid"] == json::array({16, 1, 1}));
}

TEST_CASE("check: the lessons' stories - racy histogram and missing barrier found, their fixes clean") {
    CHECK(check_json({"--kernel", "histogram-racy"}).exit_code == 3);
    CHECK(check_json({"--kernel", "histogram-atomic", "--n", "10000", "--bins", "7"}).exit_code == 0);
    const Checked nosync =
        check_json({"--kernel", "matmul-tiled-nosync", "--rows", "48", "--cols", "48", "--inner", "48"});
    CHECK(nosync.exit_code == 3);
    CHECK(nosync.j["counts"]["read_write_hazard"] > 0);
    CHECK(nosync.j["findings"][0]["array"].get<std::string>().find('s') == 1);  // As or Bs
    CHECK(check_json({"--kernel", "matmul-tiled", "--rows", "48", "--cols", "48", "--inner", "48"}).exit_code == 0);
    CHECK(check_json({"--kernel", "reduce-sequential", "--n", "5000"}).exit_code == 0);
    CHECK(check_json({"--kernel", "stencil-1d", "--n", "1000", "--block", "64"}).exit_code == 0);
    // Blocks of 2 threads: the halo loads (3 each side) overlap the neighbours' values and
    // the last 2 halo cells are never loaded.
    const Checked tiny = check_json({"--kernel", "stencil-1d", "--n", "100", "--block", "2"});
    CHECK(tiny.exit_code == 3);
    for (const char* k : {"transpose-naive", "transpose-tiled", "transpose-tiled-padded"})
        CHECK(check_json({"--kernel", k, "--rows", "50", "--cols", "70"}).exit_code == 0);
    // A block that is not a power of two: the interleaved reduction reads past sdata's end.
    const Checked odd = check_json({"--kernel", "reduce-interleaved", "--n", "300", "--block", "100"});
    CHECK(odd.exit_code == 3);
    CHECK(odd.j["findings"][0]["kind"] == "out_of_bounds");
    CHECK(odd.j["findings"][0]["array"] == "sdata");
}

TEST_CASE("check: past the end of an unguarded kernel is out of bounds, with the thread and index") {
    const Checked r = check_json({"--kernel", "increment-unguarded", "--n", "500", "--block", "32"});
    CHECK(r.exit_code == 3);
    CHECK(r.j["counts"]["out_of_bounds"] == 24);
    CHECK(r.j["findings"][0]["threads"] == json::array({thread({15, 0, 0}, {20, 0, 0})}));
    CHECK(r.j["findings"][0]["index"] == json::array({500}));
}

TEST_CASE("check: bad usage and invalid launches exit 2 with one line") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"check", "--kernel", "nope"}, "unknown kernel 'nope'; choose increment, "},
        {{"check", "--kernel", "increment", "--n", "10", "--bins", "4"}, "--bins is not a parameter of increment"},
        {{"check", "--kernel", "histogram-racy", "--rows", "4"},
         "--rows is not a parameter of histogram-racy (it takes --n, --bins)"},
        {{"check", "--kernel", "histogram-racy", "--block", "2048"}, "invalid launch"},
        {{"check", "--kernel", "histogram-racy", "--bins", "0"}, "--bins must be from 1 to"},
        {{"check", "--kernel", "reduce-sequential", "--block", "0"}, "invalid launch"},
        {{"check", "--preset", "seed-increment", "--backend", "cuda"}, "check runs in the kernel model"},
        {{"check", "--preset", "seed-increment", "--format", "xml"}, "--format"},
    };
    for (const auto& [args, message] : cases) {
        CAPTURE(args.back());
        const RunResult r = run_threadmap(args);
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(r.err.find(message) != std::string::npos, r.err);
    }
}

TEST_CASE("kernels lists the registry with what each uses") {
    const RunResult r = run_threadmap({"kernels", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const json list = json::parse(r.out)["kernels"];
    CHECK(list.size() == 18);
    for (const json& k : list) {
        const std::string name = k["name"];
        CAPTURE(name);
        const bool shared = name.find("-tiled") != std::string::npos || name.rfind("reduce-", 0) == 0 ||
                            name == "stencil-1d" || name == "histogram-shared";
        CHECK(k["barriers"] == shared);
        CHECK(k["shared_memory"] == shared);
        CHECK(k["atomics"] == (name == "histogram-atomic" || name == "histogram-shared"));
    }
    const RunResult text = run_threadmap({"kernels"});
    CHECK(text.out.find("matmul-tiled\n  C = A·B with 16×16 tiles") != std::string::npos);
}

TEST_CASE("map --array --access: who read each element of seed-matmul's A - the map schema, first reader and count") {
    const RunResult r =
        run_threadmap({"map", "--preset", "seed-matmul", "--array", "A", "--access", "read", "--format", "json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const json j = json::parse(r.out);
    CHECK(j["kernel"] == "matmul");
    CHECK(j["array"] == "A");
    CHECK(j["access"] == "read");
    CHECK(j["shape"] == json::array({300, 200}));
    const json& e = j["elements"];
    REQUIRE(e.size() == 300 * 200);
    // A[i][k] is read by the 200 threads of row i (j = 0…199); the first is j = 0: block
    // (i/32, 0, 0), thread (i%32, 0, 0). Rows 200-299 lie outside C: nobody reads them.
    for (uint64_t i : {0u, 37u, 199u}) {
        const json& el = e[i * 200 + 5];
        CHECK(el["index"] == json::array({i, 5}));
        CHECK(el["touches"] == 200);
        CHECK(el["block"] == json::array({i / 32, 0, 0}));
        CHECK(el["thread"] == json::array({i % 32, 0, 0}));
    }
    CHECK(e[250 * 200]["touches"] == 0);
    CHECK(e[250 * 200]["block"].is_null());
    CHECK(j["stats"]["elements_untouched"] == 100 * 200);
    CHECK(j["findings"] == json::array());
}

TEST_CASE("map of a kernel only the model runs - its output by default - with findings in the JSON") {
    const RunResult r =
        run_threadmap({"map", "--kernel", "histogram-racy", "--n", "300", "--bins", "4", "--format", "json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const json j = json::parse(r.out);
    CHECK(j["array"] == "bins");
    CHECK(j["access"] == "write");
    uint64_t writers = 0;
    for (const json& el : j["elements"]) writers += el["touches"].get<uint64_t>();
    CHECK(writers == 300);  // each value counted by one thread
    CHECK(j["finding_counts"]["write_write_race"] == 4);
    CHECK(j["findings"][0]["kind"] == "write_write_race");
    const RunResult csv =
        run_threadmap({"map", "--kernel", "transpose-naive", "--rows", "2", "--cols", "3", "--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK(csv.out.rfind(
              "i,j,block_x,block_y,block_z,thread_x,thread_y,thread_z,touches\n0,0,0,0,0,0,0,0,1\n0,1,0,0,0,0,1,0,1\n",
              0) == 0);
    for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"map", "--kernel", "reduce-sequential", "--array", "partial", "--shared-block", "0"},
              "--shared-block goes with --array of a __shared__ array (partial is global)"},
             {{"map", "--kernel", "reduce-sequential", "--array", "sdata", "--shared-block", "256"},
              "the block (256,0,0) whose sdata the map shows is outside gridDim (256,1,1)"},
             {{"map", "--preset", "seed-increment", "--array", "B"},
              "kernel increment has no array 'B' (its arrays: a)"},
             {{"map", "--preset", "seed-increment", "--access", "both"}, "--access"}}) {
        const RunResult bad = run_threadmap(args);
        CHECK(bad.exit_code == 2);
        CHECK_MESSAGE(bad.err.find(message) != std::string::npos, bad.err);
    }
}

TEST_CASE("map of a __shared__ array shows one block's copy - its writers, readers and the hazards on it") {
    // The tiled matmul without its second barrier: every element of block (1,2)'s As tile is
    // written by one thread and has a read-write hazard.
    const RunResult r = run_threadmap(
        {"map", "--preset", "missing-barrier", "--array", "As", "--shared-block", "1,2", "--format", "json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const json j = json::parse(r.out);
    CHECK(j["array"] == "As");
    CHECK(j["shared_block"] == json::array({1, 2, 0}));
    CHECK(j["shape"] == json::array({16, 16}));
    REQUIRE(j["elements"].size() == 256);
    for (const json& e : j["elements"]) {
        CHECK(e["block"] == json::array({1, 2, 0}));
        CHECK(e["touches"] == 1);
        CHECK(e["thread"][0] == e["index"][1]);  // thread (tx, ty) writes As[ty][tx]
        CHECK(e["thread"][1] == e["index"][0]);
    }
    // Readers: each As[ty][k] is read by the 16 threads of row ty at each of the 13 steps along
    // inner 200: 16 threads, each counted once however often it read.
    const RunResult reads = run_threadmap({"map", "--preset", "tiled-matmul", "--array", "As", "--access", "read",
                                           "--shared-block", "3", "--format", "json"});
    REQUIRE_MESSAGE(reads.exit_code == 0, reads.err);
    const json read_map = json::parse(reads.out);  // kept: a range-for over a temporary's member dangles
    REQUIRE(read_map["elements"].size() == 256);
    for (const json& e : read_map["elements"]) CHECK(e["touches"] == 16);
}

TEST_CASE(
    "--phase: past the launch's last phase map and render exit 2 naming its phases - check and memory refuse it") {
    // reduce-sequential, block 32: a barrier after the loads, then one per step s = 16 .. 1: phases 0 to 6.
    const std::vector<std::string> launch{"--kernel", "reduce-sequential", "--n",  "1024", "--block",
                                          "32",       "--array",           "sdata"};
    const auto with = [&](std::vector<std::string> args, const std::string& phase) {
        args.insert(args.end(), launch.begin(), launch.end());
        args.insert(args.end(), {"--phase", phase});
        return run_threadmap(args);
    };
    CHECK(with({"map"}, "6").exit_code == 0);
    const RunResult past = with({"map"}, "7");
    CHECK(past.exit_code == 2);
    CHECK(past.err.find("this launch has phases 0 to 6 (its longest-running block passes 6 barriers)") !=
          std::string::npos);
    if (THREADMAP_HAS_GUI) {  // render is there with the window's libraries
        const RunResult render = with({"render", "--out", "/tmp/threadmap-phase-past.png"}, "7");
        CHECK(render.exit_code == 2);
        CHECK(render.err.find("phases 0 to 6") != std::string::npos);
    }
    // check and memory are the whole launch's: a phase is refused, not silently ignored.
    for (const char* command : {"check", "memory"}) {
        const RunResult r = with({command}, "2");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("--phase is for map and render") != std::string::npos);
    }
}
