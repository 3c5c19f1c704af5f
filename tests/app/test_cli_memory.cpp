// `threadmap memory` as a script uses it: the JSON contract (sites, totals, nulls where a
// figure does not apply), the tutorial's sector counts, CSV rows, and exit 2 for bad usage.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"

using nlohmann::json;

namespace {

json memory_json(std::vector<std::string> args) {
    args.insert(args.begin(), "memory");
    args.push_back("--json");
    const RunResult r = run_threadmap(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return json::parse(r.out);
}

}  // namespace

TEST_CASE("memory on the tutorial's launch gives 28.6 store sectors per request and 3.6 with x on columns") {
    const json rows = memory_json({"--preset", "seed-matmul"});
    CHECK(rows["kernel"] == "matmul");
    CHECK(rows["launch"]["grid"] == json::array({16, 16, 1}));
    CHECK(rows["launch"]["block"] == json::array({32, 32, 1}));
    CHECK(rows["totals"]["global_store"]["sectors_per_request"].get<double>() == doctest::Approx(200.0 / 7));
    CHECK(rows["totals"]["global_load"]["sectors_per_request"].get<double>() == doctest::Approx(207.0 / 14));
    const json cols = memory_json({"--preset", "seed-matmul", "--kernel", "matmul-xcol"});
    CHECK(cols["totals"]["global_store"]["sectors_per_request"].get<double>() == doctest::Approx(25.0 / 7));
    CHECK(cols["totals"]["global_load"]["sectors_per_request"].get<double>() == doctest::Approx(35.5 / 14));
    // No shared memory: its totals have no requests and no worst conflict.
    CHECK(rows["totals"]["shared_load"]["requests"] == 0);
    CHECK(rows["totals"]["shared_load"]["conflict_ways_max"].is_null());
    // One site per instruction: A's and B's loads share line 8 and are two sites.
    REQUIRE(rows["sites"].size() == 3);
    const json& a = rows["sites"][0];
    CHECK(a["line"] == 8);
    CHECK(a["op"] == "load");
    CHECK(a["space"] == "global");
    CHECK(a["array"] == "A");
    CHECK(a["requests"] == 280000);
    CHECK(a["sectors"] == 8000000);
    CHECK(a["ideal_sectors"] == 1000000);
    CHECK(a["wavefronts"].is_null());
    CHECK(a["active_lanes_mean"].get<double>() == doctest::Approx(200.0 / 7));
    CHECK(rows["sites"][2]["op"] == "store");
    CHECK(rows["model"].get<std::string>().find("Nsight Compute") != std::string::npos);
}

TEST_CASE("memory names the tiled transpose's 32-way conflict and none once padded") {
    const json plain = memory_json({"--kernel", "transpose-tiled", "--rows", "64", "--cols", "96"});
    CHECK(plain["totals"]["shared_load"]["conflict_ways_max"] == 32);
    const json padded = memory_json({"--kernel", "transpose-tiled-padded", "--rows", "64", "--cols", "96"});
    CHECK(padded["totals"]["shared_load"]["conflict_ways_max"] == 1);
    bool shared_site = false;
    for (const json& s : padded["sites"])
        if (s["space"] == "shared") {
            shared_site = true;
            CHECK(s["sectors"].is_null());
            CHECK(s["sectors_per_request"].is_null());
            CHECK(s["wavefronts"].is_number());
        }
    CHECK(shared_site);
}

TEST_CASE("memory prints a table by default and CSV rows with --csv") {
    RunResult r = run_threadmap({"memory", "--kernel", "copy-offset", "--n", "1024", "--offset", "1"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("global loads: 5.00 sectors per request") != std::string::npos);
    CHECK(r.out.find("4.00 would do") != std::string::npos);
    r = run_threadmap({"memory", "--kernel", "copy-offset", "--n", "1024", "--offset", "1", "--csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("line,op,space,array,requests,sectors,ideal_sectors,sectors_per_request,", 0) == 0);
    CHECK(r.out.find("\n4,load,global,in,32,160,128,5.0000,,,32.0000,4,\n") != std::string::npos);
}

TEST_CASE("memory refuses bad usage with exit 2 and one line") {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"memory", "--kernel", "nope"},
                                                 {"memory", "--json", "--csv"},
                                                 {"memory", "--kernel", "increment", "--block", "2048"},
                                                 {"memory", "--backend", "cuda"},
                                                 {"memory", "--kernel", "copy-offset", "--offset", "x"}}) {
        CAPTURE(args[1]);
        const RunResult r = run_threadmap(args);
        CHECK(r.exit_code == 2);
        CHECK_FALSE(r.err.empty());
        CHECK(r.out.empty());
    }
}
