// The size sweep: sizes, the crossover where it is known, and `bench` with the model.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/refusal.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/timing/spec_cost.hpp"
#include "tests/run_binary.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/reports/sweep_setup.hpp"
#include "kernels/timing/sweep.hpp"
#include "app/reports/timing_report.hpp"

using namespace threadmap;
using nlohmann::json;

// A CPU clock of a synthetic machine: `ns` nanoseconds per element.
CpuClock synthetic_cpu(double ns) {
    return [ns](const KernelSpec&, const SweepCase& c) -> Outcome<CpuReferenceTiming> {
        return {CpuReferenceTiming{"a test CPU", {double(c.elements) * ns * 1e-9}, 0, 0}, {}};
    };
}

const KernelSpec& builtin(const char* name) {
    const KernelSpec* spec = find_builtin_kernel(name);
    REQUIRE(spec);
    return *spec;
}

TEST_CASE("sweep sizes run evenly on a log scale - each size grows every size parameter of any kernel") {
    const auto s = sweep_sizes(10, 100000, 5);
    CHECK(s == std::vector<uint64_t>{10, 100, 1000, 10000, 100000});
    CHECK(sweep_sizes(5, 5, 30).size() == 1);

    // A matmul is N×N×N (A follows C's rows, B its columns), its fast body's problem the same.
    const SweepCase matmul = sweep_case({&builtin("matmul"), {}, {16, 16, 1}}, 10000);
    CHECK(matmul.params == Params{100, 100, 100, 100, 100});
    CHECK(matmul.elements == 10000);
    REQUIRE(matmul.workload);
    CHECK(matmul.workload->rows == 100);
    CHECK(matmul.workload->inner == 100);
    CHECK(matmul.launch.grid == Dim3{7, 7, 1});  // the block's covering grid
    const SweepCase increment = sweep_case({&builtin("increment"), {}, {256, 1, 1}}, 777);
    CHECK(increment.params == Params{777});
    REQUIRE(increment.workload);
    CHECK(increment.workload->n == 777);
    CHECK(increment.launch.grid == Dim3{4, 1, 1});

    // Kernels without a fast body: the size is the elements of the largest global array.
    const SweepCase transpose = sweep_case({&builtin("transpose-tiled"), {}, {32, 8, 1}}, 10000);
    CHECK(transpose.params == Params{100, 100});
    CHECK(transpose.elements == 10000);
    CHECK_FALSE(transpose.workload);
    const SweepCase tiled = sweep_case({&builtin("matmul-tiled"), {}, {16, 16, 1}}, 1 << 16);
    CHECK(tiled.params == Params{256, 256, 256, 256, 256});
    // A histogram keeps its bins, a copy its offset: settings, not the problem's size.
    const SweepCase histogram = sweep_case({&builtin("histogram-atomic"), {}, {256, 1, 1}}, 100000);
    CHECK(histogram.params == Params{100000, 16});
    CHECK(histogram.elements == 100000);
    const SweepCase copy = sweep_case({&builtin("copy-offset"), {}, {256, 1, 1}}, 5000);
    CHECK(copy.params == Params{5000, 1});
    CHECK(copy.elements == 5000);  // the size asked for: in is one longer
    // The launch's settings stay (a learner's bins, an aligned copy); its sizes do not.
    CHECK(sweep_case({&builtin("histogram-atomic"), {64, 1024}, {256, 1, 1}}, 100000).params == Params{100000, 1024});
    CHECK(sweep_case({&builtin("copy-offset"), {64, 0}, {256, 1, 1}}, 5000).params == Params{5000, 0});
    // The sum's partial sums (one per block) are not its size: its input is.
    CHECK(sweep_case({&builtin("reduce-sequential"), {}, {256, 1, 1}}, 1 << 20).params == Params{1 << 20});
}

TEST_CASE("the crossover on a synthetic device where it is known") {
    // CPU: 1 ns per element. GPU: 10 us fixed + 0.1 ns per element resident, and copies of
    // 0.5 ns per element each way. Resident wins above 10 us / 0.9 ns ≈ 11,111 elements;
    // with copies the GPU costs 1.1 ns per element: it never wins.
    SweepGpu gpu;
    gpu.timer = [](const KernelSpec&, const SweepCase& c) -> std::optional<GpuStageSeconds> {
        const double n = double(c.elements);
        return GpuStageSeconds{0, n * 0.5e-9, 10e-6 + n * 0.1e-9, n * 0.5e-9};
    };
    gpu.origin = "modeled";
    gpu.device = "a test device";
    const SweepResult r =
        run_sweep({&builtin("increment"), {}, {256, 1, 1}}, sweep_sizes(1000, 1000000, 31), synthetic_cpu(1), gpu);
    REQUIRE(r.resident.elements);
    CHECK(*r.resident.elements > 11111);
    CHECK(*r.resident.elements < 11111 * 1.3);  // the first sweep size past the crossover
    CHECK_FALSE(r.with_copies.elements);
    CHECK_FALSE(r.resident.ranged);
    CHECK(r.sentence ==
          "On a test device (modeled) the kernel wins above about " + std::to_string(*r.resident.elements) +
              " elements once data stays on the device; with copies every call it never does in this range. The "
              "CPU: a test CPU.");
    // A GPU that wins, loses again at the end: no crossover (it must win to the end).
    std::vector<SweepPoint> flip = {{10, 1.0, 2.0, 0.5}, {100, 1.0, 2.0, 2.0}};
    CHECK_FALSE(crossover(flip, true));
    // A clock that fails ends the sweep, saying why.
    const SweepResult failed_clock = run_sweep(
        {&builtin("increment"), {}, {256, 1, 1}}, sweep_sizes(1000, 1000000, 5),
        [](const KernelSpec&, const SweepCase&) -> Outcome<CpuReferenceTiming> {
            return {std::nullopt, "no CPU"};
        },
        gpu);
    CHECK(failed_clock.points.empty());
    CHECK(failed_clock.sentence == "No sweep: no CPU.");
}

TEST_CASE("the crossover over a profile's ranges - from its best case to its worst") {
    // The laptop profile's pageable rate has a range: the copies-every-call crossover of the
    // tutorial's float32 increment moves with it, the resident one does not depend on it.
    const DeviceProfile* laptop = find_device_profile("laptop-gpu");
    REQUIRE(laptop);
    const SweepGpu gpu = modeled_gpu(*laptop, false, TimedProgram{});
    REQUIRE(gpu.fast);
    const SweepResult r =
        run_sweep({&builtin("increment"), {}, {256, 1, 1}}, sweep_sizes(1024, 1 << 24, 30), synthetic_cpu(2), gpu);
    CHECK(r.resident.ranged);
    REQUIRE(r.resident.fast);
    REQUIRE(r.resident.slow);
    CHECK(*r.resident.fast <= *r.resident.elements);
    CHECK(*r.resident.elements <= *r.resident.slow);
    CHECK(r.sentence.find("over the profile's ranges") != std::string::npos);
}

TEST_CASE("a kernel without a fast body is swept by the model - its arrays' bytes copied, its waves counted") {
    // transpose-tiled 1024 x 1024 float32 on the H200 profile: in (4 MiB) copied in, out
    // (4 MiB) back; the kernel reads one and writes the other.
    const DeviceProfile* h200 = find_device_profile("h200");
    REQUIRE(h200);
    const KernelSpec& transpose = builtin("transpose-tiled");
    const SweepGpu gpu = modeled_gpu(*h200, false, TimedProgram{});
    const SweepCase c = sweep_case({&transpose, {}, {32, 8, 1}}, 1 << 20);
    const auto stages = gpu.timer(transpose, c);
    REQUIRE(stages);
    const uint64_t bytes = uint64_t(4) << 20;
    CHECK(stages->h2d == doctest::Approx(modeled_copy_seconds(*h200, bytes, false)));
    CHECK(stages->d2h == doctest::Approx(modeled_copy_seconds(*h200, bytes, false)));
    CHECK(stages->alloc == 0);  // CUDA C++ allocates once, not every call
    // One block per 32 x 32 tile: 1,024 blocks of 256 threads, their waves on the 132 SMs counted.
    WorkloadCost cost = spec_cost(transpose, c.params, c.launch, TimedProgram{}).value.value();
    CHECK(cost.kernel_bytes == 2 * bytes);
    add_spec_waves(cost, transpose, c.params, c.launch, *h200);
    CHECK(cost.blocks == 1024);
    CHECK(cost.wave_slots > 0);
    CHECK(stages->kernel == doctest::Approx(model_times(*h200, cost, TimedProgram{}, false).kernel));

    // Its CPU clock is its spec's C++ reference, said in the sentence.
    const SweepResult r =
        run_sweep({&transpose, {}, {32, 8, 1}}, sweep_sizes(256, 4096, 3), sweep_cpu_clock(ElementType::Float32), gpu);
    REQUIRE(r.points.size() == 3);
    CHECK(r.kernel == "transpose-tiled");
    CHECK(r.points[2].elements == 4096);
    CHECK(r.points[2].cpu_seconds > 0);
    CHECK(r.cpu == "C++ reference, 1 thread (a check of results, not tuned)");
    CHECK(r.sentence.find("The CPU: C++ reference") != std::string::npos);
}

TEST_CASE("bench --sweep takes every built-in kernel - refusals name why") {
    for (const KernelSpec* spec : builtin_kernels()) {
        CAPTURE(spec->name);
        const RunResult r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel",
                                           spec->name, "--sweep", "--points", "3", "--to", "20000", "--json"});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const json j = json::parse(r.out);
        CHECK(j["kernel"] == spec->name);
        REQUIRE(j["points"].size() == 3);
        for (const auto& p : j["points"]) {
            CHECK(p["cpu_seconds"].get<double>() > 0);
            CHECK(p["gpu_resident_seconds"].get<double>() > 0);
            CHECK(p["gpu_copy_seconds"].get<double>() > p["gpu_resident_seconds"].get<double>());
        }
        CHECK(j["points"][2]["elements"].get<uint64_t>() > j["points"][0]["elements"].get<uint64_t>());
        const std::string cpu = j["cpu_implementation"];
        CHECK((spec->fast ? cpu.find("reference") == std::string::npos : cpu.find("C++ reference") == 0));
    }
    // The launch's bins are swept, not the default 16: 4,096 bins copy 16 KiB back each call.
    const auto first_copy = [](const char* bins) {
        const RunResult r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel",
                                           "histogram-atomic", "--bins", bins, "--sweep", "--points", "2", "--json"});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const json j = json::parse(r.out);
        CHECK(std::string(j["sentence"]).find("does not price its atomics' contention") != std::string::npos);
        return j["points"][0]["gpu_copy_seconds"].get<double>() - j["points"][0]["gpu_resident_seconds"].get<double>();
    };
    const DeviceProfile* h200 = find_device_profile("h200");
    CHECK(first_copy("4096") - first_copy("1") ==
          doctest::Approx(modeled_copy_seconds(*h200, 4096 * 4, false) - modeled_copy_seconds(*h200, 4, false)));
    // A learner's kernel has no CPU reference; a spec's arrays are float32 as its text says; a GPU
    // measures only kernels with a GPU twin.
    RunResult r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel",
                                 "histogram-racy", "--sweep", "--dtype", "float64"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("float64") != std::string::npos);
    ResolvedLaunch transpose = default_model_launch(builtin("transpose-tiled"));
    BackendChoice gpu = cpu_backend("");
    gpu.cuda = true;
    CHECK(refusal(why_no_sweep(transpose, TimedProgram{}, nullptr, gpu)).find("no GPU twin") != std::string::npos);
    CHECK(why_no_sweep(transpose, TimedProgram{}, find_device_profile("h200"), gpu).done());
    KernelSpec learner = builtin("transpose-tiled");
    learner.reference = nullptr;
    transpose.model->spec = &learner;
    CHECK(refusal(why_no_sweep(transpose, TimedProgram{}, find_device_profile("h200"), gpu)).find("no CPU reference") !=
          std::string::npos);
}

TEST_CASE("every shipped device profile cites a source for every number") {
    REQUIRE(device_profiles().size() >= 4);
    for (const auto& p : device_profiles()) {
        CAPTURE(p.name);
        CHECK(p.sources.size() == profile_fields().size());
        for (const auto& [field, source] : p.sources) CHECK(source.size() > 20);
        // The first call is the sum of labelled parts, each with its own source.
        for (const char* part : {"context_s", "module_s", "numba_compile_s"}) CHECK(p.sources.count(part) == 1);
        CHECK(p.fp64_gflops < p.fp32_gflops);
        CHECK(p.memory_efficiency <= 1);
    }
    // The outlier is kept only as a named worst case; the laptop profile's pageable rate is
    // a named laptop GPU's measurement.
    CHECK(find_device_profile("laptop-gpu-worst-reported")->pageable_gbps == 0.75);
    CHECK(find_device_profile("laptop-gpu")->sources.at("pageable_gbps").find("GTX 1080 Mobile") != std::string::npos);
    CHECK(refusal(parse_device_profile(R"({"name":"x","title":"t"})")).find("missing") != std::string::npos);
    std::string text = R"({"name":"x","title":"t")";
    for (const ProfileField& f : profile_fields())
        text += std::string(",\"") + f.key + R"(":{"value":0.5,"source":")" +
                (f.key == profile_fields().front().key ? "" : "s") + "\"}";
    CHECK_FALSE(parse_device_profile(text + "}").value);  // a number without its source
}

TEST_CASE("the tutorial's numba matmul as shown - three float64 arrays in and back, allocated, FP64 - by hand") {
    const RunResult r = run_threadmap(
        {"bench", "--backend", "model", "--device-profile", "laptop-gpu", "--preset", "seed-matmul", "--json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const json j = json::parse(r.out);
    CHECK(j["program"] == json({{"language", "numba"}, {"element", "float64"}, {"transfers", "host-arrays"}}));
    REQUIRE(j["stages"].size() == 4);
    const auto& alloc = j["stages"][0];
    const auto& h2d = j["stages"][1];
    const auto& kernel = j["stages"][2];
    const auto& d2h = j["stages"][3];
    CHECK(alloc["name"] == "alloc");
    CHECK(double(alloc["seconds_median"]) == doctest::Approx(3 * 9e-6));  // A, B and C, 9 us each
    // A 300x200 + B 200x300 + C 200x200 float64 = 480,000 + 480,000 + 320,000 bytes, in and back.
    CHECK(h2d["bytes"] == 1280000);
    CHECK(d2h["bytes"] == 1280000);
    CHECK(double(h2d["seconds_median"]) == doctest::Approx(1e-5 + 1280000 / 5.9e9));  // pageable 5.9 GB/s
    CHECK(double(h2d["seconds_min"]) == doctest::Approx(5e-6 + 1280000 / 9.8e9));     // the ranges' best end
    CHECK(double(h2d["seconds_max"]) == doctest::Approx(2e-5 + 1280000 / 2.4e9));     // and worst
    // numba's launch with three arrays: 6.6 + 3 x 3.75 us; 2·200·200·200 flops at the FP64 peak
    // of 86.4 GFLOP/s (1/64 of FP32) = 185.2 us, far above the 7.7 us of memory traffic.
    CHECK(double(kernel["seconds_median"]) == doctest::Approx(6.6e-6 + 3 * 3.75e-6 + 16e6 / 86.4e9));
    // First call: context 138 ms + module 11 ms + numba's compile 300 ms + that kernel.
    CHECK(double(j["first_launch_seconds"]) ==
          doctest::Approx(0.138 + 0.011 + 0.3 + 6.6e-6 + 3 * 3.75e-6 + 16e6 / 86.4e9));
    CHECK(std::string(j["first_launch_what"]).find("numba's compile 300.0 ms") != std::string::npos);
    CHECK((std::string(j["cpu_reference"]["implementation"]).find("dgemm") != std::string::npos ||
           std::string(j["cpu_reference"]["implementation"]).find("blocked loop, float64") != std::string::npos));
}

TEST_CASE("bench --preset applies the lesson's timing settings - the flags add to them - bad ones exit 2") {
    RunResult r = run_threadmap({"bench", "--backend", "model", "--preset", "timing-resident", "--json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    json j = json::parse(r.out);
    CHECK(j["resident"] == true);
    CHECK(j["repeats"] == 1000);
    CHECK(std::string(j["device"]).find("model: laptop-gpu") != std::string::npos);  // the lesson's profile
    r = run_threadmap({"bench", "--backend", "model", "--preset", "timing-pinned", "--repeat", "3", "--json"});
    REQUIRE(r.exit_code == 0);
    j = json::parse(r.out);
    CHECK(j["pinned"] == true);
    CHECK(j["repeats"] == 3);
    r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel", "increment", "--n",
                       "1000", "--transfers", "host-arrays"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--language numba") != std::string::npos);
    r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel", "increment", "--n",
                       "1000", "--language", "numba", "--transfers", "host-arrays", "--resident"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("nothing stays resident") != std::string::npos);
    r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--kernel", "increment", "--n",
                       "1000", "--dtype", "float16"});
    CHECK(r.exit_code == 2);
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
    CHECK(j["sources"].size() == profile_fields().size());
    // The fixed lesson's program: float32, A and B copied in explicitly. Pageable copies on the
    // laptop profile: 5.9 GB/s, 480 kB of A and B, plus 10 us.
    CHECK(j["program"]["element"] == "float32");
    CHECK(j["program"]["transfers"] == "explicit");
    CHECK(double(j["stages"][0]["seconds_median"]) == doctest::Approx(1e-5 + 480000 / 5.9e9));
    CHECK(j["stages"][0]["bytes"] == 480000);
    CHECK(j["stages"][2]["bytes"] == 360000);  // C, 300 x 300 float32, back once

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

    const std::string list = run_threadmap({"bench", "--device-profile", "list"}).out;
    CHECK(list.find("h200:") != std::string::npos);
    CHECK(list.find("pageable_gbps            5.9 [2.4, 9.8]") != std::string::npos);  // value, range, source
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

TEST_CASE("a bench report reads back as written - every field, the program and the ranges") {
    const RunResult r = run_threadmap(
        {"bench", "--backend", "model", "--device-profile", "laptop-gpu", "--preset", "seed-matmul", "--json"});
    REQUIRE(r.exit_code == 0);
    const json written = json::parse(r.out);
    const Outcome<TimingReport> read = parse_timing_report(written);
    REQUIRE_MESSAGE(read.value, read.error);
    const json again = to_json(*read.value);
    CHECK(again == written);
    if (again != written) MESSAGE(json::diff(written, again).dump());
    // A report built in memory (signed integers, not text's unsigned ones) reads back too: the
    // recording fuzzer found that it did not.
    const Outcome<TimingReport> in_memory = parse_timing_report(again);
    REQUIRE_MESSAGE(in_memory.value, in_memory.error);
    CHECK(to_json(*in_memory.value) == again);
}
