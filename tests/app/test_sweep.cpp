// The size sweep: sizes, the crossover where it is known, and `bench` with the model.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../run_binary.hpp"
#include "device_profiles.hpp"
#include "sweep.hpp"
#include "timing_report.hpp"

using namespace threadmap;
using nlohmann::json;

TEST_CASE("sweep sizes run evenly on a log scale from --from to --to") {
    const auto s = sweep_sizes(10, 100000, 5);
    CHECK(s == std::vector<uint64_t>{10, 100, 1000, 10000, 100000});
    CHECK(sweep_sizes(5, 5, 30).size() == 1);
    CHECK(sized_workload(KernelKind::Matmul, 10000).rows == 100);
    CHECK(sized_workload(KernelKind::Increment, 777).n == 777);
}

TEST_CASE("the crossover on a synthetic device where it is known") {
    // CPU: 1 ns per element. GPU: 10 us fixed + 0.1 ns per element resident, and copies of
    // 0.5 ns per element each way. Resident wins above 10 us / 0.9 ns ≈ 11,111 elements;
    // with copies the GPU costs 1.1 ns per element: it never wins.
    const auto cpu = [](const Workload& w) { return double(element_count(w)) * 1e-9; };
    const GpuTimer gpu = [](const Workload& w) -> std::optional<GpuStageSeconds> {
        const double n = double(element_count(w));
        return GpuStageSeconds{n * 0.5e-9, 10e-6 + n * 0.1e-9, n * 0.5e-9};
    };
    const SweepResult r =
        run_sweep(KernelKind::Increment, sweep_sizes(1000, 1000000, 31), cpu, gpu, "modeled", "a test device");
    REQUIRE(r.crossover_elements);
    CHECK(*r.crossover_elements > 11111);
    CHECK(*r.crossover_elements < 11111 * 1.3);  // the first sweep size past the crossover
    CHECK_FALSE(r.crossover_elements_with_copies);
    CHECK(r.sentence ==
          "On a test device (modeled) the kernel wins above about " + std::to_string(*r.crossover_elements) +
              " elements once data stays on the device; with copies every launch it never does in this range.");
    // A GPU that wins, loses again at the end: no crossover (it must win to the end).
    std::vector<SweepPoint> flip = {{10, 1.0, 2.0, 0.5}, {100, 1.0, 2.0, 2.0}};
    CHECK_FALSE(crossover(flip, true));
}

TEST_CASE("every shipped device profile cites a source for every number") {
    REQUIRE(device_profiles().size() >= 3);
    for (const auto& p : device_profiles()) {
        CAPTURE(p.name);
        CHECK(p.sources.size() == 7);
        for (const auto& [field, source] : p.sources) CHECK(source.size() > 20);
    }
    CHECK_THROWS_WITH_AS(parse_device_profile(R"({"name":"x","title":"t"})"),
                         doctest::Contains("malformed device profile"), std::runtime_error);
    CHECK_THROWS_AS(parse_device_profile(R"({"name":"x","title":"t","pinned_gbps":{"value":1,"source":""},
        "pageable_gbps":{"value":1,"source":"s"},"copy_latency_s":{"value":1,"source":"s"},"memory_gbps":{"value":1,"source":"s"},
        "fp32_gflops":{"value":1,"source":"s"},"launch_latency_s":{"value":1,"source":"s"},"startup_s":{"value":1,"source":"s"}})"),
                    std::runtime_error);  // a number without its source
}

TEST_CASE("bench --backend model - stages modeled - the CPU reference measured") {
    RunResult r = run_threadmap({"bench", "--backend", "model", "--device-profile", "laptop-gpu", "--preset",
                                 "seed-matmul-fixed", "--repeat", "3", "--json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const json j = json::parse(r.out);
    CHECK(j["backend"] == "model");
    REQUIRE(j["stages"].size() == 3);
    for (const auto& s : j["stages"]) CHECK(s["origin"] == "modeled");
    CHECK(j["stages"][0]["name"] == "h2d");
    CHECK(j["cpu_reference"]["origin"] == "measured");
    CHECK(j["first_launch_origin"] == "modeled");
    CHECK(j["sources"].size() == 7);
    // Pageable copies on the laptop profile: 0.75 GB/s, 480 kB of A and B, plus 10 us.
    CHECK(double(j["stages"][0]["seconds_median"]) == doctest::Approx(1e-5 + 480000 / 0.75e9));

    r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel", "increment", "--n", "10",
                       "--sweep", "--points", "12", "--csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("elements,cpu_seconds,gpu_copy_seconds,gpu_resident_seconds,origin\n", 0) == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 13);
    CHECK(r.out.find(",cpu: measured, gpu: modeled\n") != std::string::npos);

    r = run_threadmap({"bench", "--backend", "cpu", "--kernel", "increment", "--n", "10", "--sweep", "--points", "5",
                       "--to", "100000", "--json"});
    REQUIRE(r.exit_code == 0);
    const json s = json::parse(r.out);
    CHECK(s["points"].size() == 5);
    CHECK(s["points"][0]["gpu_copy_seconds"].is_null());
    CHECK(s["crossover_elements"].is_null());

    // The sweep chooses the sizes: no --n (or rows and cols) is needed, for any kernel.
    for (const char* kernel : {"increment", "matmul"}) {
        r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel", kernel, "--sweep",
                           "--points", "3", "--csv"});
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 4);
    }

    CHECK(run_threadmap({"bench", "--device-profile", "list"}).out.find("h200:") != std::string::npos);
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"bench", "--backend", "model"},
          {"bench", "--backend", "model", "--device-profile", "abacus"},
          {"bench", "--backend", "cpu", "--device-profile", "h200"},
          {"bench", "--backend", "model", "--device-profile", "h200", "--sweep", "--from", "100", "--to", "10"},
          {"bench", "--backend", "model", "--device-profile", "h200", "--csv"},
          {"map", "--backend", "model"}}) {
        CAPTURE(bad.back());
        const RunResult b = run_threadmap(bad);
        CHECK(b.exit_code == 2);
        CHECK_FALSE(b.err.empty());
    }
}

TEST_CASE("a measured first launch says what it covers - cold or warm - and what it leaves out") {
    GpuBenchResult g;
    g.context_seconds = 0.1804;
    g.first_kernel_seconds = 0.0021;
    g.first_launch_seconds = g.context_seconds + g.first_kernel_seconds;
    const std::string cold = first_launch_sentence(g);
    CHECK(cold.rfind("cold: creating the context 180.4 ms + the first kernel with its module load 2.1 ms", 0) == 0);
    CHECK(cold.find("driver's start-up") != std::string::npos);
    g.first_launch_warm = true;
    g.context_seconds = 0.00001;
    CHECK(first_launch_sentence(g).rfind("warm: the context existed before this run (0.0 ms)", 0) == 0);
}
