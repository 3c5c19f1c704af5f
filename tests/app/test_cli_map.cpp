// `threadmap map` as scripts use it: exit codes, the JSON and CSV contract, bad input.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"

using nlohmann::json;

namespace {

json map_json(std::vector<std::string> args) {
    args.insert(args.begin(), "map");
    args.push_back("--format");
    args.push_back("json");
    const RunResult r = run_threadmap(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return json::parse(r.out);
}

}  // namespace

TEST_CASE("the tutorial's buggy launch - 531 blocks - 16992 threads - 500 active") {
    const json j = map_json({"--preset", "seed-increment-bug", "--no-elements"});
    CHECK(j["launch"]["grid"] == json::array({531, 1, 1}));
    CHECK(j["launch"]["block"] == json::array({32, 1, 1}));
    CHECK(j["kernel"] == "increment");
    CHECK(j["shape"] == json::array({500}));
    CHECK(j["stats"]["blocks"] == 531);
    CHECK(j["stats"]["threads_launched"] == 16992);
    CHECK(j["stats"]["threads_active"] == 500);
    CHECK(j["stats"]["threads_idle"] == 16492);
    CHECK_FALSE(j.contains("elements"));
}

TEST_CASE("a tutorial kernel takes its parameters as every kernel does - defaults, --inner after --cols, A's rows") {
    const json defaults = map_json({"--kernel", "increment", "--no-elements"});
    CHECK(defaults["shape"] == json::array({500}));
    CHECK(defaults["backend"] == "cpu-emulator");
    const json mm =
        map_json({"--kernel", "matmul", "--rows", "100", "--cols", "50", "--a_rows", "120", "--no-elements"});
    CHECK(mm["operands"]["A"] == json::array({120, 50}));
    CHECK(mm["operands"]["B"] == json::array({50, 50}));
    CHECK(mm["operands"]["C"] == json::array({100, 50}));
    // A with fewer rows than C: the rows past A's end are read out of bounds, and found.
    const json short_a =
        map_json({"--kernel", "matmul", "--rows", "10", "--cols", "4", "--a_rows", "8", "--no-elements"});
    CHECK(short_a["finding_counts"]["out_of_bounds"] == 2 * 4 * 4);  // rows 8 and 9, 4 columns, 4 of A's each
}

TEST_CASE("JSON elements - row-major - index always a list - untouched elements null") {
    const json j = map_json({"--kernel", "matmul", "--rows", "5", "--cols", "3", "--block", "4,2", "--grid", "1,1"});
    const auto& el = j["elements"];
    REQUIRE(el.size() == 15);
    CHECK(el[0]["index"] == json::array({0, 0}));
    CHECK(el[1]["index"] == json::array({0, 1}));
    CHECK(el[3]["index"] == json::array({1, 0}));
    // x indexes rows: element (3,1) is thread (3,1) of block (0,0).
    CHECK(el[3 * 3 + 1]["thread"] == json::array({3, 1, 0}));
    CHECK(el[3 * 3 + 1]["touches"] == 1);
    // One 4x2 block covers rows 0..3 and columns 0..1: row 4 and column 2 are untouched.
    CHECK(el[4 * 3 + 0]["touches"] == 0);
    CHECK(el[4 * 3 + 0]["block"].is_null());
    CHECK(el[4 * 3 + 0]["thread"].is_null());
    CHECK(el[0 * 3 + 2]["touches"] == 0);
    CHECK(j["stats"]["elements_untouched"] == 7);

    const json one = map_json({"--kernel", "increment", "--n", "3", "--block", "2"});
    CHECK(one["elements"][2]["index"] == json::array({2}));
    CHECK(one["elements"][2]["block"] == json::array({1, 0, 0}));
    CHECK(one["launch"]["grid"] == json::array({2, 1, 1}));  // the covering grid by default
}

TEST_CASE("CSV - one row per element - or the stats with --no-elements") {
    RunResult r = run_threadmap({"map", "--kernel", "increment", "--n", "40", "--block", "32", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("i,block_x,block_y,block_z,thread_x,thread_y,thread_z,touches\n", 0) == 0);
    CHECK(r.out.find("\n33,1,0,0,1,0,0,1\n") != std::string::npos);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 41);
    r = run_threadmap({"map", "--preset", "seed-matmul", "--format", "csv", "--no-elements"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("threads_launched,262144\n") != std::string::npos);
    CHECK(r.out.find("threads_active,40000\n") != std::string::npos);
}

TEST_CASE("the table shows who wrote what for small shapes and the stats") {
    const RunResult r = run_threadmap({"map", "--kernel", "increment", "--n", "8", "--block", "4,2", "--grid", "1,2"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("0,0/3,0*") != std::string::npos);  // written by more than one thread
    CHECK(r.out.find("elements untouched  4") != std::string::npos);
    const RunResult big = run_threadmap({"map", "--kernel", "increment", "--n", "100000"});
    REQUIRE(big.exit_code == 0);
    CHECK(big.out.find("threads launched    100096") != std::string::npos);
    CHECK(big.out.find("use --format csv or json") != std::string::npos);
}

TEST_CASE("with no display - the window says so in one line and points to threadmap render") {
    const RunResult r = run_threadmap({}, {"-u DISPLAY", "-u WAYLAND_DISPLAY"});
    if (!THREADMAP_HAS_GUI) {  // a build without the window says that instead
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("this build has no window") != std::string::npos);
        return;
    }
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("no display") != std::string::npos);
    CHECK(r.err.find("threadmap render") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') <= 2);  // GLFW's own line, then ours
}

TEST_CASE("invalid launches exit 2 with the limit named - before anything runs") {
    RunResult r = run_threadmap({"map", "--kernel", "increment", "--n", "100", "--block", "32,33"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("blockDim (32,33,1) has 1056 threads; a block may have at most 1024") != std::string::npos);
    CHECK(r.err.find("cudaErrorInvalidConfiguration") != std::string::npos);
    r = run_threadmap({"map", "--kernel", "increment", "--n", "100", "--block", "1,1,65"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("blockDim.z is 65") != std::string::npos);
    r = run_threadmap({"map", "--kernel", "increment", "--n", "100", "--grid", "1,70000"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("gridDim.y is 70000") != std::string::npos);
    r = run_threadmap({"map", "--kernel", "increment", "--n", "100", "--grid", "0"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("gridDim.x is 0") != std::string::npos);
}

TEST_CASE("a launch valid on a GPU but too big to emulate gets its own message") {
    const RunResult r =
        run_threadmap({"map", "--kernel", "increment", "--n", "10", "--grid", "2147483647", "--block", "1024"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("valid on a GPU; above the emulator's cap of 1073741824 threads") != std::string::npos);
    CHECK(r.err.find("invalid launch") == std::string::npos);
}

TEST_CASE("shapes above the caps are refused before allocating") {
    RunResult r = run_threadmap({"map", "--kernel", "increment", "--n", "18446744073709551615"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("above the emulator's cap") != std::string::npos);
    r = run_threadmap({"map", "--kernel", "matmul", "--rows", "4294967296", "--cols", "4294967296"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("C has 18446744073709551616 elements") != std::string::npos);
}

TEST_CASE("malformed arguments exit 2 with a one-line message - never a crash") {
    const std::vector<std::vector<std::string>> bad = {
        {"map", "--n", "-5"},
        {"map", "--n", "abc"},
        {"map", "--n", "1e3"},
        {"map", "--n", ""},
        {"map", "--n", "99999999999999999999999"},
        {"map", "--kernel", "nope", "--n", "5"},
        {"map", "--kernel", "increment", "--n", "0"},
        {"map", "--kernel", "increment", "--n", "5", "--block", "1,2,3,4"},
        {"map", "--kernel", "increment", "--n", "5", "--block", "4294967296"},
        {"map", "--kernel", "increment", "--n", "5", "--block", ",,"},
        {"map", "--kernel", "increment", "--n", "5", "--rows", "3"},
        {"map", "--kernel", "matmul", "--n", "5"},
        {"map", "--kernel", "matmul", "--rows", "0", "--cols", "4"},
        {"map", "--preset", "no-such-lesson"},
        {"map", "--preset", "seed-matmul", "--kernel", "increment"},
        {"map", "--format", "xml"},
        {"map", "--unknown"},
        {"frobnicate"},
    };
    for (const auto& args : bad) {
        CAPTURE(args.back());
        const RunResult r = run_threadmap(args);
        CHECK(r.exit_code == 2);
        CHECK_FALSE(r.err.empty());
        CHECK(r.out.empty());
    }
}

TEST_CASE("map's JSON names a matmul's operands whichever engine made the map") {
    for (const char* kernel : {"matmul", "matmul-tiled"})
        for (const std::vector<std::string>& more : {std::vector<std::string>{}, {"--array", "C"}}) {
            std::vector<std::string> args = {"map", "--kernel", kernel, "--rows",   "4",    "--cols",
                                             "5",   "--inner",  "3",    "--format", "json", "--no-elements"};
            args.insert(args.end(), more.begin(), more.end());
            CAPTURE(kernel);
            CAPTURE(more.size());
            const RunResult r = run_threadmap(args);
            REQUIRE(r.exit_code == 0);
            const auto j = nlohmann::json::parse(r.out);
            CHECK(j["operands"] == nlohmann::json::parse(R"({"A":[4,3],"B":[3,5],"C":[4,5]})"));
        }
}

TEST_CASE("an empty value is refused by every command's options - never read as the default") {
    std::vector<std::vector<std::string>> empty = {
        {"occupancy", "--cc", "9.0", "--sms", "10", "--registers", ""},
        {"occupancy", "--cc", "9.0", "--sms", "10", "--shared-bytes", ""},
        {"occupancy", "--cc", "", "--sms", "10"},
        {"bench", "--backend", "model", "--device-profile", "h200", "--repeat", ""},
        {"bench", "--backend", "model", "--device-profile", "h200", "--dtype", ""},
        {"check", "--kernel", "increment", "--phase", ""},
        {"memory", "--preset", "coalescing", "--array", ""},
    };
    if (THREADMAP_HAS_GUI) {  // the window's and render's options
        empty.push_back({"--color", ""});
        empty.push_back({"render", "--kernel", "increment", "--color", "", "--out", "/tmp/threadmap-unwritten.png"});
        empty.push_back({"render", "--session", "", "--out", "/tmp/threadmap-unwritten.png"});
    }
    for (const auto& args : empty) {
        std::string line;
        for (const auto& a : args) line += a + " ";
        CAPTURE(line);
        const RunResult r = run_threadmap(args, {"-u DISPLAY", "-u WAYLAND_DISPLAY"});
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("an empty value") != std::string::npos);
    }
}

TEST_CASE("--help and --version") {
    RunResult r = run_threadmap({"--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("map") != std::string::npos);
    r = run_threadmap({"map", "--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("--block") != std::string::npos);
    r = run_threadmap({"--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("threadmap ") == 0);
    CHECK(r.out.find("CUDA: ") != std::string::npos);
}

TEST_CASE("map's JSON carries the kernel model's findings for the same launch") {
    RunResult r = run_threadmap(
        {"map", "--kernel", "increment", "--n", "64", "--block", "32,2", "--format", "json", "--no-elements"});
    REQUIRE(r.exit_code == 0);
    nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["finding_counts"]["write_write_race"] == 64);
    REQUIRE(j["findings"].size() > 0);
    CHECK(j["findings"][0]["kind"] == "write_write_race");
    r = run_threadmap({"map", "--preset", "seed-increment", "--format", "json", "--no-elements"});
    REQUIRE(r.exit_code == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["findings"] == nlohmann::json::array());
    CHECK(j["finding_counts"]["out_of_bounds"] == 0);
}

TEST_CASE("a reader that closes the pipe early - exit 1 with the reason, not death by SIGPIPE") {
    const std::string cmd = std::string("bash -c 'set -o pipefail; ") + threadmap_binary() +
                            " map --kernel increment --n 1000000 --format csv 2>/tmp/threadmap-pipe-" +
                            std::to_string(getpid()) + ".err | head -c 1 > /dev/null'";
    const int status = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    std::ifstream err("/tmp/threadmap-pipe-" + std::to_string(getpid()) + ".err");
    const std::string text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
    CHECK(text.find("could not write the output") != std::string::npos);
}
