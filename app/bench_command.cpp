// `threadmap bench`; see bench_command.hpp.
#include "bench_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "backend_choice.hpp"
#include "cpu_reference.hpp"
#include "cuda_runtime.hpp"

namespace threadmap {

namespace {

constexpr uint64_t kMaxRepeats = 10000;

std::string cpu_name() {
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "CPU";
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

nlohmann::json stage_json(const std::string& name, std::vector<double> s, uint64_t bytes, const std::string& origin) {
    std::sort(s.begin(), s.end());
    return {{"name", name},
            {"seconds_min", s.front()},
            {"seconds_median", s[s.size() / 2]},
            {"seconds_max", s.back()},
            {"repeats", s.size()},
            {"bytes", bytes},
            {"origin", origin}};
}

void print_text(const nlohmann::json& j) {
    std::printf("%s on %s\nlaunch gridDim (%d,%d,%d) blockDim (%d,%d,%d)\n\n", std::string(j["kernel"]).c_str(),
                std::string(j["device"]).c_str(), int(j["launch"]["grid"][0]), int(j["launch"]["grid"][1]),
                int(j["launch"]["grid"][2]), int(j["launch"]["block"][0]), int(j["launch"]["block"][1]),
                int(j["launch"]["block"][2]));
    std::printf("%-8s %12s %12s %12s %10s %10s  %s\n", "stage", "min", "median", "max", "GB/s", "GFLOP/s", "origin");
    const double flops = j["flops"];
    const auto row = [&](const nlohmann::json& s, const char* label) {
        const double med = s["seconds_median"];
        const bool copy = s["name"] == "h2d" || s["name"] == "d2h";  // copies move bytes, no flops
        char gflops[32] = "-";
        if (!copy) std::snprintf(gflops, sizeof gflops, "%.2f", flops / med / 1e9);
        std::printf("%-8s %10.1f us %10.1f us %10.1f us %10.2f %10s  %s\n", label, double(s["seconds_min"]) * 1e6,
                    med * 1e6, double(s["seconds_max"]) * 1e6, double(s["bytes"]) / med / 1e9, gflops,
                    std::string(s["origin"]).c_str());
    };
    for (const auto& s : j["stages"]) row(s, std::string(s["name"]).c_str());
    std::printf("\nCPU reference: %s\n", std::string(j["cpu_reference"]["implementation"]).c_str());
    row(j["cpu_reference"], "cpu-ref");
    if (!j["first_launch_seconds"].is_null())
        std::printf("\nfirst launch in the process (context, module load, launch): %.1f ms, measured\n",
                    double(j["first_launch_seconds"]) * 1e3);
    std::printf("%s\n", std::string(j["note"]).c_str());
}

}  // namespace

void add_bench_command(CLI::App& app, BenchCommandOptions& o) {
    auto* cmd = app.add_subcommand("bench", "Time host→device copy, kernel and device→host copy, next to the CPU");
    add_launch_options(*cmd, o.launch);
    cmd->add_option("--repeat", o.repeat, "Repeats per stage (default 10)");
    cmd->add_flag("--pinned", o.pinned, "Page-locked host memory (cudaMallocHost) instead of pageable");
    cmd->add_flag("--resident", o.resident, "Copy once, launch --repeat times, copy back once");
    cmd->add_flag("--json", o.json, "JSON instead of a table");
}

int run_bench_command(const BenchCommandOptions& o) {
    const auto fail = [](const std::string& why, int code) {
        std::fprintf(stderr, "threadmap bench: %s\n", why.c_str());
        return code;
    };
    std::string error;
    const auto repeats = parse_count(o.repeat, "--repeat", error);
    if (!repeats) return fail(error, 2);
    if (*repeats < 1 || *repeats > kMaxRepeats) return fail("--repeat must be between 1 and " + std::to_string(kMaxRepeats), 2);
    const PrepareResult prepared = prepare_launch(o.launch);
    if (!prepared.value) return fail(prepared.error, 2);
    const BackendChoice& b = prepared.value->backend;
    const ResolvedLaunch& r = prepared.value->launch;

    const CpuReferenceTiming ref = time_cpu_reference(r.workload, int(*repeats));
    nlohmann::json j;
    j["kernel"] = std::string(kernel_name(r.workload.kernel));
    j["shape"] = map_shape(r.workload);
    j["launch"] = {{"grid", {r.launch.grid.x, r.launch.grid.y, r.launch.grid.z}},
                   {"block", {r.launch.block.x, r.launch.block.y, r.launch.block.z}}};
    j["flops"] = ref.flops;
    j["repeats"] = *repeats;
    j["pinned"] = o.pinned;
    j["resident"] = o.resident;
    j["date"] = utc_now();
    j["cpu_reference"] = stage_json("cpu", ref.seconds, ref.bytes, "measured");
    j["cpu_reference"]["implementation"] = ref.implementation;
    j["cpu_reference"]["device"] = cpu_name();
    if (b.cuda) {
        GpuBenchOptions go;
        go.repeats = int(*repeats);
        go.pinned = o.pinned;
        go.resident = o.resident;
        const GpuBenchResult g = bench_on_gpu(r.workload, r.launch, go, b.device);
        if (!g.error.empty()) return fail(g.error, 1);
        j["backend"] = "cuda";
        j["device"] = g.device;
        j["driver_version"] = g.driver_version;
        j["runtime_version"] = g.runtime_version;
        j["stages"] = nlohmann::json::array();
        for (const auto& s : g.stages) j["stages"].push_back(stage_json(s.name, s.seconds, s.bytes, s.origin));
        j["first_launch_seconds"] = g.first_launch_seconds;
        j["note"] = "CUDA events around each copy and kernel; the CPU reference on this machine's host clock.";
    } else {
        j["backend"] = "cpu";
        j["device"] = cpu_name();
        j["stages"] = {stage_json("cpu", ref.seconds, ref.bytes, "measured")};
        j["first_launch_seconds"] = nullptr;
        j["note"] = "No GPU timings here (" + b.reason + "): the CPU computation alone, on a steady clock.";
    }
    if (o.json)
        std::printf("%s\n", j.dump(1).c_str());
    else
        print_text(j);
    return 0;
}

}  // namespace threadmap
