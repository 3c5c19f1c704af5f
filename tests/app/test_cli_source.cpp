// `--source`: a learner's CUDA file on the command line. The maps and findings of the seed's
// kernel typed by hand equal the built-in's; a compile error exits 2 with Clang's
// file:line:column and caret; a kernel that loops forever or crashes exits 3 with the reason.
#include <doctest/doctest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"
#include "kernels/source/seed_source.hpp"

using nlohmann::json;

namespace {

const char* const kIncrement = threadmap::kSeedIncrementSource;

}  // namespace

TEST_CASE("--source: the seed's increment typed by hand maps and checks as the built-in does") {
    const std::string cu = temp_source_file("increment.cu", kIncrement);
    for (const char* block : {"128", "32,2"}) {
        CAPTURE(block);
        const RunResult typed = run_threadmap({"map", "--source", cu, "--bind", "a=float[500]", "--bind", "n=500",
                                               "--block", block, "--grid", "4", "--format", "json"});
        const RunResult built_in = run_threadmap({"map", "--kernel", "increment", "--n", "500", "--block", block,
                                                  "--grid", "4", "--array", "a", "--format", "json"});
        REQUIRE_MESSAGE(typed.exit_code == 0, typed.err);
        REQUIRE_MESSAGE(built_in.exit_code == 0, built_in.err);
        const json t = json::parse(typed.out), b = json::parse(built_in.out);
        CHECK(t["kernel"] == "increment_by_one");
        CHECK(t["elements"] == b["elements"]);
        CHECK(t["stats"] == b["stats"]);
        CHECK(t["finding_counts"] == b["finding_counts"]);
    }
    const RunResult race = run_threadmap(
        {"check", "--source", cu, "--bind", "a=float[64]", "--bind", "n=64", "--block", "32,2", "--format", "json"});
    CHECK(race.exit_code == 3);
    const json j = json::parse(race.out);
    CHECK(j["counts"]["write_write_race"] == 32);
    CHECK(j["findings"][0]["line"] == 4);
}

TEST_CASE("--source: a compile error exits 2 with Clang's file:line:column and caret") {
    const std::string cu = temp_source_file("broken.cu",
                                            "__global__ void k(float* a) {\n"
                                            "    int i = threadIdx.x\n"
                                            "    a[i] = 1;\n"
                                            "}\n");
    const RunResult r = run_threadmap({"check", "--source", cu, "--bind", "a=float[4]"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(cu + ":2:24: error: expected ';' at end of declaration") != std::string::npos);
    CHECK(r.err.find("^") != std::string::npos);
    CHECK(r.out.empty());
}

TEST_CASE("--source: what is missing or wrong in the bindings is named, exit 2") {
    const std::string cu = temp_source_file("bind.cu", kIncrement);
    const auto err = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"check", "--source", cu});
        const RunResult r = run_threadmap(args);
        CHECK(r.exit_code == 2);
        return r.err;
    };
    CHECK(err({"--bind", "a=float[10]"}).find("--bind n=VALUE") != std::string::npos);
    CHECK(err({"--bind", "a=int[10]", "--bind", "n=10"}).find("not an array of int") != std::string::npos);
    CHECK(err({"--bind", "a=float[10]", "--bind", "n=ten"}).find("whole number") != std::string::npos);
    CHECK(err({"--bind", "a=10", "--bind", "n=10"}).find("is a pointer") != std::string::npos);
    CHECK(err({"--bind", "a=float[10]", "--bind", "n=10", "--bind", "m=3"}).find("no parameter 'm'") !=
          std::string::npos);
    CHECK(err({"--bind", "a=float[10]:sevens", "--bind", "n=10"}).find("not a starting value") != std::string::npos);
    // Too large: the model's limit, whether one size or the product (not the covering grid's threads).
    CHECK(err({"--bind", "a=float[99999999999]", "--bind", "n=10"})
              .find("--bind a: 99999999999 elements; the kernel model records at most 16777216") != std::string::npos);
    CHECK(err({"--bind", "a=float[65536][65536]", "--bind", "n=10"})
              .find("the arrays have 4294967296 elements in all; the kernel model records at most 16777216") !=
          std::string::npos);
    CHECK(err({"--bind", "a=float[10]", "--bind", "n=10", "--entry", "other"}).find("no __global__ kernel 'other'") !=
          std::string::npos);
    const RunResult stray = run_threadmap({"check", "--kernel", "increment", "--n", "10", "--bind", "n=10"});
    CHECK(stray.exit_code == 2);
    CHECK(stray.err.find("go with --source") != std::string::npos);
}

TEST_CASE("--source: an image of unsigned char into doubles maps and is counted at the elements' sizes") {
    const std::string cu = temp_source_file("gray.cu",
                                            "__global__ void gray(const unsigned char* rgb, double* out, int n) {\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    if (i < n) out[i] = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + "
                                            "0.114 * rgb[3 * i + 2];\n"
                                            "}\n");
    const std::vector<std::string> launch = {
        "--source", cu,        "--bind", "rgb=uchar[192]:random", "--bind", "out=double[64]", "--bind",
        "n=64",     "--block", "32"};
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.end(), launch.begin(), launch.end());
        return run_threadmap(args);
    };
    const RunResult map = with({"map", "--array", "rgb", "--access", "read", "--format", "json"});
    REQUIRE_MESSAGE(map.exit_code == 0, map.err);
    const json m = json::parse(map.out);
    REQUIRE(m["elements"].size() == 192);
    CHECK(m["elements"][100]["thread"] == json::array({1, 0, 0}));  // byte 100 is pixel 33's green: block 1, thread 1
    CHECK(m["elements"][100]["block"] == json::array({1, 0, 0}));
    CHECK(with({"check"}).exit_code == 0);
    const RunResult memory = with({"memory", "--json"});
    REQUIRE_MESSAGE(memory.exit_code == 0, memory.err);
    const json v = json::parse(memory.out);
    for (const json& s : v["sites"]) {
        CAPTURE(s.dump());
        if (s["array"] == "rgb") {
            // Three loads a pixel, each warp's 32 of them every third byte of 96: 3 sectors where 1 would do.
            CHECK(s["requests"] == 6);
            CHECK(s["sectors"] == 18);
            CHECK(s["ideal_sectors"] == 6);
        } else {
            // A warp's 32 doubles: 256 bytes, 8 sectors, as few as can be.
            CHECK(s["requests"] == 2);
            CHECK(s["sectors"] == 16);
            CHECK(s["ideal_sectors"] == 16);
        }
    }
}

TEST_CASE("--source: a float4 copy maps four elements per thread and counts 16-byte accesses, 16 sectors a warp") {
    const std::string cu = temp_source_file("copy4.cu",
                                            "__global__ void copy4(const float* in, float* out, int n) {\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    if (4 * i < n)\n"
                                            "        reinterpret_cast<float4*>(out)[i] = "
                                            "reinterpret_cast<const float4*>(in)[i];\n"
                                            "}\n");
    const std::vector<std::string> launch = {
        "--source", cu,        "--bind", "in=float[512]:index", "--bind", "out=float[512]", "--bind",
        "n=512",    "--block", "64"};
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.end(), launch.begin(), launch.end());
        return run_threadmap(args);
    };
    const RunResult map = with({"map", "--array", "out", "--format", "json"});
    REQUIRE_MESSAGE(map.exit_code == 0, map.err);
    const json m = json::parse(map.out);
    REQUIRE(m["elements"].size() == 512);
    CHECK(m["elements"][263]["thread"] == json::array({1, 0, 0}));  // float4 65: block 1, thread 1
    CHECK(m["elements"][263]["block"] == json::array({1, 0, 0}));
    const RunResult memory = with({"memory", "--json"});
    REQUIRE_MESSAGE(memory.exit_code == 0, memory.err);
    const json v = json::parse(memory.out);
    REQUIRE(v["sites"].size() == 2);
    for (const json& s : v["sites"]) {
        CAPTURE(s.dump());
        CHECK(s["access_bytes"] == 16);
        CHECK(s["requests"] == 4);  // 128 threads: 4 warps
        CHECK(s["sectors"] == 64);
        CHECK(s["sectors_per_request"] == 16.0);
    }
}

TEST_CASE("--source: a __constant__ array bound as cudaMemcpyToSymbol would fill it gives the expected result") {
    const std::string cu =
        temp_source_file("blur.cu",
                         "__constant__ float w[3];\n"
                         "__global__ void blur(const float* in, float* out, int n) {\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i > 0 && i < n - 1) out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];\n"
                         "}\n");
    const auto first = [&](const std::string& w) {
        const RunResult r =
            run_threadmap({"check", "--source", cu, "--bind", "in=float[64]:index", "--bind", "out=float[64]", "--bind",
                           "n=64", "--bind", w, "--block", "32", "--expect",
                           "for (int i = 1; i < n - 1; ++i) out[i] = i;", "--sweep-launches", "--format", "json"});
        INFO(r.err);
        const json j = json::parse(r.out);
        CHECK(j["expected"] == true);
        return j["launches"][0];  // the learner's own launch against the expected result
    };
    CHECK(first("w=float[3]:0.25,0.5,0.25")["agrees"] == true);
    const json zeros = first("w=float[3]:zeros");
    CHECK(zeros["agrees"] == false);
    CHECK(zeros["first_difference"] == "out[1] is 0, the expected result is 1");
}

TEST_CASE("--source: a __constant__ array maps by its readers and its loads cost their distinct addresses") {
    const std::string cu = temp_source_file("lut.cu",
                                            "__constant__ float w[3] = {0.25f, 0.5f, 0.25f};\n"
                                            "__constant__ float lut[64];\n"
                                            "__global__ void k(const float* in, float* out, int n) {\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    if (i < n) out[i] = w[1] * in[i] + lut[i % 64];\n"
                                            "}\n");
    const std::vector<std::string> launch = {
        "--source", cu,        "--bind", "in=float[128]:index", "--bind", "out=float[128]", "--bind",
        "n=128",    "--block", "64"};
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.end(), launch.begin(), launch.end());
        return run_threadmap(args);
    };
    const RunResult map = with({"map", "--array", "w", "--access", "read", "--format", "json"});
    REQUIRE_MESSAGE(map.exit_code == 0, map.err);
    const json m = json::parse(map.out);
    REQUIRE(m["elements"].size() == 3);
    CHECK(m["elements"][1]["touches"] == 128);  // every thread reads w[1]
    CHECK(m["elements"][0]["touches"] == 0);
    const RunResult memory = with({"memory", "--json"});
    REQUIRE_MESSAGE(memory.exit_code == 0, memory.err);
    const json v = json::parse(memory.out);
    for (const json& site : v["sites"]) {
        CAPTURE(site.dump());
        if (site["array"] == "w") {  // one address a warp: a broadcast
            CHECK(site["space"] == "constant");
            CHECK(site["addresses_per_request"] == 1.0);
            CHECK(site["sectors"].is_null());
        } else if (site["array"] == "lut") {  // 32 lanes, 32 addresses
            CHECK(site["addresses"] == 4 * 32);
            CHECK(site["addresses_max"] == 32);
        }
    }
    CHECK(v["totals"]["constant_load"]["requests"] == 8);
    CHECK(v["totals"]["constant_load"]["addresses"] == 4 + 4 * 32);
}

TEST_CASE("--source: a kernel of __half maps, its loads count 2 bytes a lane, a value past a half's range exits 2") {
    const std::string cu = temp_source_file("haxpy.cu",
                                            "#include <cuda_fp16.h>\n"
                                            "__global__ void haxpy(__half* y, const __half* x, __half a, int n) {\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    if (i < n) y[i] = __hfma(a, x[i], y[i]);\n"
                                            "}\n");
    const auto with = [&](std::vector<std::string> args, const std::string& a) {
        for (const std::string& w : {"--source", cu.c_str(), "--bind", "y=half[100]:index", "--bind",
                                     "x=half[100]:ones", "--bind", "n=100", "--block", "64"})
            args.push_back(w);
        args.push_back("--bind");
        args.push_back("a=" + a);
        return run_threadmap(args);
    };
    const RunResult map = with({"map", "--format", "json"}, "0.5");
    REQUIRE_MESSAGE(map.exit_code == 0, map.err);
    const json m = json::parse(map.out);
    CHECK(m["array"] == "y");
    CHECK(m["elements"].size() == 100);
    CHECK(m["findings"].empty());
    const RunResult memory = with({"memory", "--json"}, "0.5");
    REQUIRE_MESSAGE(memory.exit_code == 0, memory.err);
    const json v = json::parse(memory.out);  // kept: the loop below reads into it
    for (const json& site : v["sites"]) {
        CAPTURE(site.dump());
        CHECK(site["access_bytes"] == 2);
        // 100 elements of 2 bytes, blocks of 64: three warps of 64 bytes (2 sectors), then 4 lanes (1).
        CHECK(site["sectors"] == 2 + 2 + 2 + 1);
    }
    const RunResult big = with({"map"}, "70000");
    CHECK(big.exit_code == 2);
    CHECK(big.err.find("65504") != std::string::npos);
}

TEST_CASE("the half-precision lesson's story: 2 sectors a warp's request, and __half2 halves the requests at 4") {
    const RunResult lesson = run_threadmap({"memory", "--preset", "half-precision", "--json"});
    REQUIRE_MESSAGE(lesson.exit_code == 0, lesson.err);
    const json l = json::parse(lesson.out);
    // Look for: two halves a thread through __half2, over n / 2 threads.
    const std::string cu =
        temp_source_file("half2.cu",
                         "#include <cuda_fp16.h>\n"
                         "__global__ void scale(const __half* in, __half* out, int n) {\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i < n / 2) {\n"
                         "        __half2 v = reinterpret_cast<const __half2*>(in)[i];\n"
                         "        reinterpret_cast<__half2*>(out)[i] = __hmul2(v, __float2half2_rn(0.1f));\n"
                         "    }\n"
                         "}\n");
    const RunResult pairs =
        run_threadmap({"memory", "--source", cu, "--bind", "in=half[2048]:index", "--bind", "out=half[2048]", "--bind",
                       "n=2048", "--grid", "8", "--block", "128", "--json"});
    REQUIRE_MESSAGE(pairs.exit_code == 0, pairs.err);
    const json p = json::parse(pairs.out);
    for (const char* op : {"global_load", "global_store"}) {
        CAPTURE(op);
        CHECK(l["totals"][op]["requests"] == 64);
        CHECK(l["totals"][op]["sectors_per_request"] == 2.0);
        CHECK(p["totals"][op]["requests"] == 32);
        CHECK(p["totals"][op]["sectors_per_request"] == 4.0);
        CHECK(p["totals"][op]["sectors"] == l["totals"][op]["sectors"]);  // the same bytes
    }
}

TEST_CASE("compile: NVRTC finds the toolkit's headers beside it - cuda_fp16.h and cooperative groups compile") {
    const std::string half =
        temp_source_file("half.cu",
                         "#include <cuda_fp16.h>\n"
                         "__global__ void k(__half* a) { a[threadIdx.x] = __hadd(a[0], a[1]); }\n");
    const std::string groups = temp_source_file("groups.cu",
                                                "#include <cooperative_groups.h>\n"
                                                "namespace cg = cooperative_groups;\n"
                                                "__global__ void k(float* a) {\n"
                                                "    cg::thread_block b = cg::this_thread_block();\n"
                                                "    a[b.thread_rank()] = 1;\n"
                                                "    b.sync();\n"
                                                "}\n");
    for (const std::string& cu : {half, groups}) {
        CAPTURE(cu);
        const RunResult r = run_threadmap({"compile", "--source", cu, "--format", "json"});
        REQUIRE_MESSAGE(r.exit_code == 0, (r.out + r.err));
        const json c = json::parse(r.out);
        CHECK(c["clang"]["compiled"] == true);
        if (!c["nvrtc"]["available"].get<bool>()) {
            MESSAGE("NVRTC not checked: " << c["nvrtc"]["unavailable"].get<std::string>());
            continue;
        }
        CHECK(c["nvrtc"]["compiled"] == true);
    }
}

TEST_CASE("--source and a lesson's own kernel: a zero blockDim is refused in CUDA's words by every command") {
    // The covering grid divides by the block before validation sees it: it once did so by zero.
    const std::string cu = temp_source_file("zero-block.cu", kIncrement);
    for (const std::string command : {"map", "check", "memory", "occupancy", "render"}) {
        if (command == "render" && !THREADMAP_HAS_GUI) continue;  // render needs the window's libraries
        for (const std::string block : {"0", "32,0", "0,0,0"}) {
            CAPTURE(command);
            CAPTURE(block);
            std::vector<std::string> extra{"--block", block};
            if (command == "render") extra.insert(extra.end(), {"--out", "/tmp/threadmap-zero-block.png"});
            if (command == "occupancy") extra.insert(extra.end(), {"--registers", "32"});
            for (std::vector<std::string> args :
                 {std::vector<std::string>{command, "--source", cu, "--bind", "a=float[10]", "--bind", "n=10"},
                  std::vector<std::string>{command, "--preset", "off-by-one-guard"}}) {
                args.insert(args.end(), extra.begin(), extra.end());
                const RunResult r = run_threadmap(args);
                CHECK(r.exit_code == 2);
                CHECK(r.err.find("must be at least 1") != std::string::npos);
            }
        }
    }
}

TEST_CASE("--source: an endless loop is stopped at the time limit and a crash is reported, exit 3") {
    const std::string loop = temp_source_file("loop.cu",
                                              "__global__ void spin(int* a) {\n"
                                              "    while (a[0] == 0) { }\n"
                                              "}\n");
    const RunResult timed_out =
        run_threadmap({"check", "--source", loop, "--bind", "a=int[1]", "--block", "1", "--time-limit", "0.5"});
    CHECK(timed_out.exit_code == 3);
    CHECK(timed_out.err.find("kernel spin ran past the time limit of 0.5 s") != std::string::npos);
    const std::string wild = temp_source_file("wild.cu",
                                              "__global__ void wild(int* a, int n) {\n"
                                              "    int* p = (int*)(long)n;\n"
                                              "    p[0] = a[0];\n"
                                              "}\n");
    const RunResult crashed = run_threadmap({"map", "--source", wild, "--bind", "a=int[1]", "--bind", "n=16"});
    CHECK(crashed.exit_code == 3);
    CHECK(crashed.err.find("kernel wild crashed with SIGSEGV") != std::string::npos);
}

TEST_CASE("--source: printf's text follows check's report and the map's table, is in the JSON, and leaves CSV alone") {
    const std::string cu =
        temp_source_file("hello.cu",
                         "__global__ void hello(int* a) {\n"
                         "    printf(\"hello from thread %d of block %d\\n\", threadIdx.x, blockIdx.x);\n"
                         "    a[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
                         "}\n");
    const std::vector<std::string> launch = {"--source", cu, "--bind", "a=int[4]", "--grid", "2", "--block", "2"};
    const auto with = [&](std::vector<std::string> args, std::vector<std::string> more) {
        args.insert(args.end(), launch.begin(), launch.end());
        args.insert(args.end(), more.begin(), more.end());
        return run_threadmap(args);
    };
    const std::string text =
        "hello from thread 0 of block 0\nhello from thread 1 of block 0\n"
        "hello from thread 0 of block 1\nhello from thread 1 of block 1\n";
    const RunResult check = with({"check"}, {});
    REQUIRE_MESSAGE(check.exit_code == 0, check.err);
    CHECK(check.out.find("hello called printf 4 times (in the order the model ran its threads") != std::string::npos);
    CHECK(check.out.substr(check.out.size() - text.size()) == text);
    const json j = json::parse(with({"check"}, {"--format", "json"}).out);
    CHECK(j["printed"]["text"] == text);
    CHECK(j["printed"]["calls"] == 4);
    const json m = json::parse(with({"map"}, {"--format", "json"}).out);
    CHECK(m["printed"]["text"] == text);
    const RunResult table = with({"map"}, {});
    CHECK(table.out.substr(table.out.size() - text.size()) == text);
    const RunResult csv = with({"map"}, {"--format", "csv"});
    CHECK(csv.out.find("hello") == std::string::npos);  // stdout stays CSV
    CHECK(csv.err.find(text) != std::string::npos);
    // The lesson: 3 blocks of 4, each thread's line in the model's order, block 0 first.
    const RunResult lesson = run_threadmap({"check", "--preset", "hello-threads"});
    REQUIRE_MESSAGE(lesson.exit_code == 0, lesson.err);
    CHECK(lesson.out.find("hello called printf 12 times") != std::string::npos);
    CHECK(lesson.out.find("block 0, thread 0: i = 0\nblock 0, thread 1: i = 1\n") != std::string::npos);
    CHECK(lesson.out.find("block 2, thread 3: i = 11\n") != std::string::npos);
    // A kernel that does not call printf has no "printed".
    const std::string quiet = temp_source_file("quiet.cu", kIncrement);
    const json q = json::parse(
        run_threadmap({"check", "--source", quiet, "--bind", "a=float[4]", "--bind", "n=4", "--format", "json"}).out);
    CHECK(!q.contains("printed"));
}

TEST_CASE("--source: check and compile show Clang's warnings about a kernel that compiled (often the bug)") {
    const std::string cu = temp_source_file("assign.cu",
                                            "__global__ void k(int* a, int n) {\n"
                                            "    int i = threadIdx.x;\n"
                                            "    if (i = n) a[i] = 1;\n"
                                            "}\n");
    const std::string warning = cu + ":3:11: warning: using the result of an assignment as a condition";
    const RunResult check = run_threadmap({"check", "--source", cu, "--bind", "a=int[4]", "--bind", "n=0"});
    REQUIRE_MESSAGE(check.exit_code == 0, check.err);
    CHECK(check.out.rfind("Clang's warnings (the kernel compiled and ran as written):\n" + warning, 0) == 0);
    const json j = json::parse(
        run_threadmap({"check", "--source", cu, "--bind", "a=int[4]", "--bind", "n=0", "--format", "json"}).out);
    CHECK(j["warnings"].get<std::string>().find(warning) != std::string::npos);
    const RunResult compile = run_threadmap({"compile", "--source", cu, "--format", "json"});
    CHECK(json::parse(compile.out)["clang"]["warnings"].get<std::string>().find(warning) != std::string::npos);
    // --sweep-launches too, text and JSON.
    const RunResult sweep =
        run_threadmap({"check", "--source", cu, "--bind", "a=int[4]", "--bind", "n=0", "--sweep-launches"});
    CHECK(sweep.out.rfind("Clang's warnings (the kernel compiled and ran as written):\n" + warning, 0) == 0);
    const json s = json::parse(run_threadmap({"check", "--source", cu, "--bind", "a=int[4]", "--bind", "n=0",
                                              "--sweep-launches", "--format", "json"})
                                   .out);
    CHECK(s["warnings"].get<std::string>().find(warning) != std::string::npos);
    // A kernel with nothing to warn about has no "warnings".
    const std::string clean = temp_source_file("clean.cu", kIncrement);
    const json c = json::parse(
        run_threadmap({"check", "--source", clean, "--bind", "a=float[4]", "--bind", "n=4", "--format", "json"}).out);
    CHECK(!c.contains("warnings"));
}

TEST_CASE("check --sweep-launches: where a kernel breaks, and a kernel that holds on every launch") {
    const std::string naive = temp_source_file("naive.cu", kIncrement);
    const RunResult broken = run_threadmap({"check", "--source", naive, "--bind", "a=float[500]", "--bind", "n=500",
                                            "--sweep-launches", "--format", "json"});
    CHECK(broken.exit_code == 3);
    const json b = json::parse(broken.out);
    CHECK(b["reference"]["launch"]["grid"] == json::array({2, 1, 1}));
    bool single_block_differs = false, two_d_races = false;
    for (const json& l : b["launches"]) {
        if (l["why"] == "a single block") {
            single_block_differs = l["differing"] == 244 && !l["agrees"].get<bool>();
            CHECK(l["first_difference"] == "a[256] is 0, the reference launch leaves 1");
        }
        if (l["why"] == "a 2-D block") two_d_races = l["counts"]["write_write_race"].get<int>() > 0;
    }
    CHECK(single_block_differs);
    CHECK(two_d_races);

    // A grid-stride loop over the whole linear index: the same result on every launch.
    const std::string robust =
        temp_source_file("robust.cu",
                         "__global__ void increment(float* a, int n) {\n"
                         "    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
                         "    int threads = blockDim.x * blockDim.y * blockDim.z;\n"
                         "    int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);\n"
                         "    int all = threads * gridDim.x * gridDim.y * gridDim.z;\n"
                         "    for (int i = block * threads + tid; i < n; i += all)\n"
                         "        a[i] = a[i] + 1;\n"
                         "}\n");
    const RunResult holds =
        run_threadmap({"check", "--source", robust, "--bind", "a=float[500]", "--bind", "n=500", "--sweep-launches"});
    CHECK_MESSAGE(holds.exit_code == 0, holds.out);
    CHECK(holds.out.find("every launch gives your launch's result and findings") != std::string::npos);
    CHECK(holds.out.find("DIFFERS") == std::string::npos);
}

TEST_CASE(
    "--source: a warp-shuffle sum is right on whole warps, and the sweep finds the block whose last warp is short") {
    const RunResult own = run_threadmap({"check", "--preset", "warp-shuffle-sum", "--format", "json"});
    CHECK_MESSAGE(own.exit_code == 0, own.out);
    const RunResult sweep =
        run_threadmap({"check", "--preset", "warp-shuffle-sum", "--sweep-launches", "--format", "json"});
    CHECK(sweep.exit_code == 3);
    const json j = json::parse(sweep.out);
    bool short_warp = false, one_big_block = false;
    for (const json& l : j["launches"]) {
        if (l["launch"]["block"] == json::array({100, 1, 1}))
            // 10 blocks, each with a last warp of 4 lanes: 5 shuffles read missing lanes, and lane 0
            // of that warp adds 8x its 4 lanes' values (each missing read keeps its own).
            short_warp = !l["agrees"].get<bool>() && l["counts"]["uninitialized_read"] == 50;
        if (l["launch"]["block"] == json::array({1024, 1, 1})) one_big_block = l["agrees"].get<bool>();
    }
    CHECK(short_warp);
    CHECK(one_big_block);
}

TEST_CASE("--source: an index before an array's start is a negative out-of-bounds index") {
    const std::string cu = temp_source_file("before.cu",
                                            "__global__ void diff(const float* in, float* out, int n) {\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    if (i < n) out[i] = in[i] - in[i - 1];\n"
                                            "}\n");
    const RunResult r = run_threadmap({"check", "--source", cu, "--bind", "in=float[64]", "--bind", "out=float[64]",
                                       "--bind", "n=64", "--format", "json"});
    CHECK(r.exit_code == 3);
    const json j = json::parse(r.out);
    CHECK(j["counts"]["out_of_bounds"] == 1);
    CHECK(j["findings"][0]["index"] == json::array({-1}));
    CHECK(j["findings"][0]["message"].get<std::string>().find("reads in[-1] at line 3, before the start of in") !=
          std::string::npos);
}

TEST_CASE("a lesson with its own kernel source: --preset compiles it, --bind changes a binding") {
    const RunResult lesson = run_threadmap({"check", "--preset", "off-by-one-guard", "--format", "json"});
    REQUIRE_MESSAGE(lesson.exit_code == 3, lesson.err);
    const json j = json::parse(lesson.out);
    CHECK(j["counts"]["out_of_bounds"] == 3);  // thread 100 reads x[100], y[100] and writes y[100]
    for (const json& f : j["findings"]) CHECK(f["line"] == 5);
    // n = 99 with 100 elements: the off-by-one thread stays inside the arrays (the bug hides).
    const RunResult hidden = run_threadmap({"check", "--preset", "off-by-one-guard", "--bind", "n=99"});
    CHECK_MESSAGE(hidden.exit_code == 0, (hidden.out + hidden.err));
    const RunResult map = run_threadmap({"map", "--preset", "off-by-one-guard", "--format", "json"});
    REQUIRE_MESSAGE(map.exit_code == 0, map.err);
    CHECK(json::parse(map.out)["kernel"] == "saxpy");
    CHECK(json::parse(map.out)["stats"]["threads_active"] == 100);
    const RunResult shape = run_threadmap({"map", "--preset", "off-by-one-guard", "--n", "5"});
    CHECK(shape.exit_code == 2);
    CHECK(shape.err.find("has its own kernel source") != std::string::npos);
}

TEST_CASE("compile: each built-in kernel's CUDA text compiles with Clang and with NVRTC for a GPU") {
    const RunResult probe = run_threadmap({"compile", "--kernel", "increment", "--format", "json"});
    REQUIRE_MESSAGE(probe.exit_code == 0, probe.err);
    if (!json::parse(probe.out)["nvrtc"]["available"].get<bool>()) {
        MESSAGE("skipped: " << json::parse(probe.out)["nvrtc"]["unavailable"].get<std::string>());
        return;
    }
    const RunResult list = run_threadmap({"kernels", "--format", "json"});
    REQUIRE(list.exit_code == 0);
    const json kernels = json::parse(list.out)["kernels"];
    for (const json& k : kernels) {
        const std::string name = k["name"];
        CAPTURE(name);
        const RunResult r = run_threadmap({"compile", "--kernel", name, "--format", "json"});
        CHECK_MESSAGE(r.exit_code == 0, (r.out + r.err));
        const json j = json::parse(r.out);
        CHECK(j["clang"]["compiled"] == true);
        CHECK(j["nvrtc"]["compiled"] == true);
        CHECK(j["nvrtc"]["arch"] == "compute_90");
        CHECK(j["nvrtc"]["ptx_bytes"].get<int>() > 0);
    }
}

TEST_CASE(
    "compile: a syntax error is each compiler's own message - __activemask compiles for a GPU, not for the model") {
    const std::string bad = temp_source_file("bad.cu", "__global__ void k(float* a) {\n    a[threadIdx.x] = 1\n}\n");
    const RunResult r = run_threadmap({"compile", "--source", bad});
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("bad.cu:2:23: error: expected ';'") != std::string::npos);  // Clang's
    const bool nvrtc = r.out.find("not run: NVRTC") == std::string::npos;        // else it says why (skipped here)
    // NVRTC names the line where it noticed: the closing brace.
    if (nvrtc) CHECK(r.out.find("bad.cu(3): error: expected a \";\"") != std::string::npos);
    const std::string active =
        temp_source_file("active.cu", "__global__ void k(unsigned* a) {\n    a[threadIdx.x] = __activemask();\n}\n");
    const RunResult p = run_threadmap({"compile", "--source", active, "--format", "json"});
    CHECK(p.exit_code == 2);
    const json j = json::parse(p.out);
    CHECK(j["clang"]["compiled"] == false);  // which lanes happen to run together: the model cannot know
    CHECK(j["clang"]["messages"].get<std::string>().find("__activemask") != std::string::npos);
    if (j["nvrtc"]["available"].get<bool>()) CHECK(j["nvrtc"]["compiled"] == true);
    // Bad options: exit 2, named.
    CHECK(run_threadmap({"compile"}).exit_code == 2);
    const RunResult arch = run_threadmap({"compile", "--kernel", "increment", "--arch", "sm_90"});
    CHECK(arch.exit_code == 2);
    CHECK(arch.err.find("--arch expects compute_XY") != std::string::npos);
}

TEST_CASE("a lesson's own expected result: check --sweep-launches compares with it, --bind n=99 included") {
    // With --bind n=99 the guard's extra thread touches element 99, inside the arrays: check
    // alone finds nothing, the sweep against the lesson's statement still fails the launch.
    const RunResult quiet = run_threadmap({"check", "--preset", "off-by-one-guard", "--bind", "n=99"});
    CHECK(quiet.exit_code == 0);
    const RunResult swept = run_threadmap(
        {"check", "--preset", "off-by-one-guard", "--bind", "n=99", "--sweep-launches", "--format", "json"});
    REQUIRE_MESSAGE(swept.exit_code == 3, swept.err);
    const json j = json::parse(swept.out);
    CHECK(j["expected"] == true);
    const json& own = j["launches"][0];
    CHECK(own["why"] == "your launch");
    CHECK(own["differing"] == 1);  // y[99], which the statement leaves as it was
    CHECK(own["first_difference"].get<std::string>().find("y[99]") == 0);
    CHECK(own["agrees"] == false);
}

TEST_CASE("check --sweep-launches --expect: every launch against the learner's statement of the right result") {
    const std::string expect = "for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];";
    // The lesson's off-by-one saxpy: its own launch has the right values but 3 out-of-bounds
    // accesses, so even it differs; one block of 32 leaves y[32..99] as they were.
    const RunResult lesson = run_threadmap(
        {"check", "--preset", "off-by-one-guard", "--sweep-launches", "--expect", expect, "--format", "json"});
    REQUIRE_MESSAGE(lesson.exit_code == 3, lesson.err);
    const json j = json::parse(lesson.out);
    CHECK(j["expected"] == true);
    const json& own = j["launches"][0];
    CHECK(own["why"] == "your launch");
    CHECK(own["differing"] == 0);
    CHECK(own["counts"]["out_of_bounds"] == 3);
    CHECK(own["agrees"] == false);
    for (const json& l : j["launches"])
        if (l["why"] == "a single block") {
            CHECK(l["differing"] == 68);
            CHECK(l["first_difference"].get<std::string>().find("y[32] is 1, the expected result is") == 0);
        }
    // A grid-stride saxpy is right on every 1-D launch; a 2-D block makes threads share i.
    const std::string stride = temp_source_file("stride.cu",
                                                "__global__ void saxpy(float a, const float* x, float* y, int n) {\n"
                                                "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                                                "         i += blockDim.x * gridDim.x)\n"
                                                "        y[i] = a * x[i] + y[i];\n"
                                                "}\n");
    const std::vector<std::string> binds = {
        "--bind", "a=2",     "--bind", "x=float[100]:random", "--bind", "y=float[100]:ones", "--bind",
        "n=100",  "--block", "32"};
    std::vector<std::string> args = {"check",    "--source", stride,     "--sweep-launches",
                                     "--expect", expect,     "--format", "json"};
    args.insert(args.end(), binds.begin(), binds.end());
    const RunResult r = run_threadmap(args);
    CHECK(r.exit_code == 3);
    const json launches = json::parse(r.out)["launches"];
    for (const json& l : launches) {
        const std::string why = l["why"];
        CAPTURE(why);
        const bool two_threads_per_i = why == "a 2-D block" || why == "a 3-D block" || why.rfind("more blocks", 0) == 0;
        CHECK(l["agrees"].get<bool>() == !two_threads_per_i);
    }
    // An expectation that does not compile names --expect's own line and column; --expect alone
    // (no sweep) is refused.
    args[5] = "for (int i = 0; i < n; ++i) y[i] = z[i];";
    const RunResult bad = run_threadmap(args);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--expect:1:36: error: use of undeclared identifier 'z'") != std::string::npos);
    std::vector<std::string> plain = {"check", "--source", stride, "--expect", expect};
    plain.insert(plain.end(), binds.begin(), binds.end());
    const RunResult alone = run_threadmap(plain);
    CHECK(alone.exit_code == 2);
    CHECK(alone.err.find("--expect goes with check --sweep-launches") != std::string::npos);
}

TEST_CASE("--source: while (1) {} spins until the time limit, as on a GPU (Clang does not delete the loop)") {
    const RunResult r = run_threadmap(
        {"check", "--source", temp_source_file("spin1.cu", "__global__ void spin(float* a) { while (1) { } }\n"),
         "--bind", "a=float[1]", "--grid", "1", "--block", "1", "--time-limit", "1"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("kernel spin ran past the time limit of 1 s") != std::string::npos);
}

TEST_CASE("--source: a crash names the line of the instruction that faulted, not of the last access") {
    const std::string division = temp_source_file("divide.cu",
                                                  "__global__ void k(int* a, int z) {\n"
                                                  "    int i = threadIdx.x;\n"
                                                  "    a[i] = 1;\n"
                                                  "    int q = 10;\n"
                                                  "    a[i] = q / (z + i - i);\n"
                                                  "}\n");
    const RunResult fpe = run_threadmap(
        {"check", "--source", division, "--bind", "a=int[4]", "--bind", "z=0", "--grid", "1", "--block", "4"});
    CHECK(fpe.exit_code == 3);
    CHECK(fpe.err.find("crashed with SIGFPE (an integer division by zero); the last line it reached was 5") !=
          std::string::npos);
    const std::string trap = temp_source_file(
        "trap.cu", "__global__ void k(int* a) {\n    int i = threadIdx.x;\n    a[i] = 1;\n    __builtin_trap();\n}\n");
    const RunResult ill =
        run_threadmap({"check", "--source", trap, "--bind", "a=int[4]", "--grid", "1", "--block", "4"});
    CHECK(ill.exit_code == 3);
    CHECK(ill.err.find("the last line it reached was 4") != std::string::npos);
}

TEST_CASE("--source: a function called but not defined is named, with its first call's line") {
    const RunResult r = run_threadmap({"check", "--source",
                                       temp_source_file("undefined.cu",
                                                        "__device__ float helper(float x);\n"
                                                        "__global__ void k(float* a) {\n"
                                                        "    a[0] = 1;\n"
                                                        "    a[0] = helper(a[0]);\n"
                                                        "}\n"),
                                       "--bind", "a=float[1]"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("undefined.cu:4: error: 'helper(float)' is called but not defined in the file") !=
          std::string::npos);
    CHECK(r.err.find("__threadmap") == std::string::npos);  // none of threadmap's own symbols
}

TEST_CASE("--source: a __device__ variable computed at run time is refused, as nvcc refuses it") {
    const RunResult r = run_threadmap(
        {"check", "--source",
         temp_source_file("dyninit.cu",
                          "__device__ float s = sinf(1.0f);\n__global__ void k(float* a) { a[0] = s; }\n"),
         "--bind", "a=float[1]"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("dyninit.cu:1:18: error: dynamic initialization is not supported for __device__ variables") !=
          std::string::npos);
}

TEST_CASE("--source: dynamic shared memory near 2^64 is refused, not wrapped under the limit") {
    const std::string cu = temp_source_file("dynshared.cu",
                                            "__global__ void k(float* a) {\n"
                                            "    __shared__ float fixed[16];\n"
                                            "    extern __shared__ float s[];\n"
                                            "    fixed[threadIdx.x % 16] = 1;\n"
                                            "    s[threadIdx.x] = 1;\n"
                                            "    __syncthreads();\n"
                                            "    a[threadIdx.x] = s[threadIdx.x] + fixed[0];\n"
                                            "}\n");
    const RunResult r = run_threadmap({"check", "--source", cu, "--bind", "a=float[32]", "--block", "32", "--grid", "1",
                                       "--dynamic-shared", "18446744073709551600"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("18446744073709551600 of them dynamic, given at launch); CUDA allows 49152") != std::string::npos);
}

TEST_CASE("--source: dynamic shared memory over the limit is refused for a kernel with no extern __shared__ too") {
    // The driver checks the launch's bytes, not what the kernel declares; an SM sets them aside all the same.
    const std::string cu = temp_source_file("nodyn.cu", kIncrement);
    const auto check = [&](const char* bytes) {
        return run_threadmap(
            {"check", "--source", cu, "--bind", "a=float[500]", "--bind", "n=500", "--dynamic-shared", bytes});
    };
    const RunResult over = check("49153");
    CHECK(over.exit_code == 2);
    CHECK(over.err.find("49153 of them dynamic, given at launch); CUDA allows 49152") != std::string::npos);
    CHECK(check("49152").exit_code == 0);
}

TEST_CASE("--source: a small kernel with barriers runs within the lowest memory limit") {
    // Its fibers' stacks count against the limit only as far as the run uses them (a whole
    // arena's reservation, writable, once made this one run out of memory at 64 MiB).
    const std::string cu = temp_source_file("barrier.cu",
                                            "__global__ void k(float* a, int n) {\n"
                                            "    __shared__ float s[256];\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    s[threadIdx.x] = 1;\n"
                                            "    __syncthreads();\n"
                                            "    if (i < n) a[i] = s[255 - threadIdx.x];\n"
                                            "}\n");
    const RunResult r = run_threadmap({"check", "--source", cu, "--bind", "a=float[1000]", "--bind", "n=1000",
                                       "--block", "256", "--memory-limit", "64"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("no findings") != std::string::npos);
}

TEST_CASE("--source: arrays too large for the model are said so, before the grid derived from them") {
    const RunResult r = run_threadmap(
        {"check", "--source", temp_source_file("two.cu", "__global__ void k(float* a, float* b) { a[0] = b[0]; }\n"),
         "--bind", "a=float[4500000][2]", "--bind", "b=float[4500000][2]"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("the arrays have 18000000 elements in all; the kernel model records at most 16777216") !=
          std::string::npos);
}

TEST_CASE("--source: bench says a learner's kernel has no CPU reference to time next to it") {
    const std::string cu = temp_source_file("timed.cu", kIncrement);
    const RunResult r = run_threadmap({"bench", "--source", cu, "--bind", "a=float[500]", "--bind", "n=500",
                                       "--backend", "model", "--device-profile", "h200"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("has no CPU reference to time next to it") != std::string::npos);
}
