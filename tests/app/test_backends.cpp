// Backends without a GPU (and with one, where there is): the reasons CUDA gives, `devices`,
// `--backend cuda` refused with that reason, and the bench JSON of the CPU.
#include <dlfcn.h>
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/run_binary.hpp"
#include "kernels/cuda/cuda_backend.hpp"

using namespace threadmap;
using nlohmann::json;

TEST_CASE("devices lists CUDA devices or says why there are none") {
    const CudaDevices cuda = list_cuda_devices();
    const RunResult r = run_threadmap({"devices"});
    CHECK(r.exit_code == 0);
    if (cuda.devices.empty()) {
        CHECK(r.out.find("no CUDA devices: " + cuda.reason) != std::string::npos);
        CHECK_FALSE(cuda.reason.empty());
        // On this project's machines nvcc is present but no driver: error 35.
        if (cuda.compiled_in && cuda.driver_version == 0)
            CHECK(cuda.reason.find("error 35 (cudaErrorInsufficientDriver") != std::string::npos);
    } else {
        CHECK(r.out.find(cuda.devices.front().name) != std::string::npos);
        CHECK(r.out.find("compute capability") != std::string::npos);
    }
    const RunResult v = run_threadmap({"--version"});
    CHECK(v.out.find(cuda.compiled_in ? "CUDA: compiled in" : "CUDA: not compiled in") != std::string::npos);
}

TEST_CASE("--backend cuda with no usable device exits 2 with CUDA's reason, on every command") {
    const CudaDevices cuda = list_cuda_devices();
    if (!cuda.devices.empty()) {
        MESSAGE("a CUDA device is present: the refusal cannot happen here");
        const RunResult r = run_threadmap(
            {"map", "--backend", "cuda", "--preset", "seed-increment", "--format", "json", "--no-elements"});
        CHECK(r.exit_code == 0);
        CHECK(json::parse(r.out)["backend"] == "cuda:" + cuda.devices.front().name);
        return;
    }
    std::vector<std::vector<std::string>> commands = {{"map", "--backend", "cuda"}, {"bench", "--backend", "cuda"}};
    if (THREADMAP_HAS_GUI) {  // render and the window exist only in builds with the GUI
        commands.push_back({"render", "--backend", "cuda", "--out", "/tmp/never-written.png"});
        commands.push_back({"--backend", "cuda"});
    }
    for (const auto& args : commands) {
        CAPTURE(args.front());
        const RunResult r = run_threadmap(args, {"-u DISPLAY"});
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("no usable CUDA device (" + cuda.reason + ")") != std::string::npos);
    }
    // auto falls back to the emulator and says so.
    const RunResult a = run_threadmap({"map", "--preset", "seed-increment", "--format", "json", "--no-elements"});
    CHECK(json::parse(a.out)["backend"] == "cpu-emulator");
}

namespace {

bool openblas_installed() {
    void* library = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (library != nullptr) dlclose(library);
    return library != nullptr;
}

// Whether the dynamic loader's account of a run (LD_DEBUG=files) names libopenblas.
bool loads_openblas(const std::vector<std::string>& args) {
    const RunResult r = run_threadmap(args, {"LD_DEBUG=files"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return r.err.find("libopenblas") != std::string::npos;
}

}  // namespace

TEST_CASE("OpenBLAS is loaded only by a CPU reference that multiplies - its threads start with no other command") {
    CHECK_FALSE(loads_openblas({"--version"}));
    CHECK_FALSE(loads_openblas({"check", "--preset", "seed-matmul"}));
    CHECK_FALSE(loads_openblas({"bench", "--backend", "cpu", "--kernel", "increment", "--n", "1000", "--repeat", "1"}));
    if (!openblas_installed()) {
        MESSAGE("libopenblas.so.0 is not installed: the matmul's CPU reference is the blocked loop");
        return;
    }
    CHECK(loads_openblas({"bench", "--backend", "cpu", "--preset", "seed-matmul", "--repeat", "1"}));
}

TEST_CASE("bench --backend cpu --json - every stage measured - the schema scripts rely on") {
    const RunResult r =
        run_threadmap({"bench", "--backend", "cpu", "--preset", "seed-matmul-fixed", "--repeat", "3", "--json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const json j = json::parse(r.out);
    CHECK(j["kernel"] == "matmul");
    CHECK(j["shape"] == json::array({300, 300}));
    CHECK(j["launch"]["grid"] == json::array({10, 10, 1}));
    CHECK(j["backend"] == "cpu");
    CHECK(j["device"].is_string());
    CHECK(j["first_launch_seconds"].is_null());
    CHECK(std::string(j["date"]).size() == 20);  // 2026-11-30T06:23:17Z
    REQUIRE(j["stages"].size() == 1);
    const json& s = j["stages"][0];
    CHECK(s["name"] == "cpu");
    CHECK(s["origin"] == "measured");
    CHECK(s["bytes"] == (300 * 200 + 200 * 300 + 300 * 300) * 4);
    CHECK(double(s["seconds_min"]) > 0);
    CHECK(double(s["seconds_min"]) <= double(s["seconds_median"]));
    CHECK(double(s["seconds_median"]) <= double(s["seconds_max"]));
    CHECK(std::string(j["cpu_reference"]["implementation"])
              .find(openblas_installed() ? "OpenBLAS sgemm" : "blocked loop") == 0);
    CHECK(j["cpu_reference"]["origin"] == "measured");
    const RunResult text =
        run_threadmap({"bench", "--backend", "cpu", "--kernel", "increment", "--n", "100000", "--repeat", "2"});
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("measured") != std::string::npos);
    for (const char* bad : {"0", "abc", "99999999"})
        CHECK(run_threadmap({"bench", "--backend", "cpu", "--repeat", bad}).exit_code == 2);
}

TEST_CASE("every command whose output cannot be written exits 1 saying so - never 0") {
    const std::vector<std::vector<std::string>> commands = {
        {"--help"},
        {"--version"},
        {"devices"},
        {"map", "--preset", "seed-increment"},
        {"map", "--preset", "seed-increment", "--format", "json"},
        {"map", "--preset", "seed-increment", "--format", "csv"},
        {"bench", "--backend", "cpu", "--kernel", "increment", "--n", "1000", "--repeat", "2"},
        {"bench", "--backend", "cpu", "--kernel", "increment", "--n", "1000", "--repeat", "2", "--json"},
        {"bench", "--backend", "model", "--device-profile", "h200", "--kernel", "increment", "--sweep", "--points",
         "3"},
        {"bench", "--device-profile", "list"},
        {"bench", "--help"},
        {"check", "--preset", "seed-increment"},
        {"check", "--kernel", "histogram-racy", "--format", "json"},  // findings (3), output lost: 1
        {"kernels"},
        {"kernels", "--format", "json"},
        {"lessons"},
        {"lessons", "--format", "json"},
        {"occupancy", "--preset", "occupancy-shared-memory"},
        {"memory", "--preset", "coalescing"},
    };
    for (const auto& args : commands) {
        std::string line;
        for (const auto& a : args) line += a + " ";
        CAPTURE(line);
        const RunResult r = run_threadmap(args, {}, "", "/dev/full");
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("output") != std::string::npos);
    }
}
