// Emulator benchmark: emulated threads per second and memory per element for the issue's
// reference workloads, printed as JSON: each a fresh emulate() (allocation included) and the
// window's path, emulate_into() the buffers of the previous run, at both levels side by side:
// "writers" (the map: what every picture and report runs) and "values" (the kernel's output too,
// as the tests run it). Each case runs in a child process so that its peak resident memory is
// its own. Usage: emulator-bench [--repeats N] (default 7).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/builtin/kernel_bodies.hpp"

using namespace threadmap;

namespace {

struct Case {
    const char* name;
    Workload workload;
    Dim3 block;
};

// kB from /proc/self/status, e.g. "VmHWM:" (peak) or "VmRSS:" (now).
uint64_t status_kb(const char* key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind(key, 0) == 0) return std::strtoull(line.c_str() + std::strlen(key), nullptr, 10);
    return 0;
}

void run_case(const Case& c, OutputValues values, int repeats, int fd) {
    const LaunchConfig launch{covering_grid(c.workload, c.block), c.block};
    const uint64_t rss_before = status_kb("VmRSS:");
    std::vector<double> ms;
    uint64_t threads = 0, elements = 0;
    unsigned workers = 0;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const LaunchResult result = emulate(c.workload, launch, 0, values);
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        threads = result.stats.threads_launched;
        elements = result.stats.elements;
        workers = result.workers;
    }
    // The window's path: the same launch again into the buffers of the previous run.
    std::vector<double> reused;
    LaunchResult into = emulate(c.workload, launch, 0, values);
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        emulate_into(c.workload, launch, into, 0, nullptr, values);
        reused.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(reused.begin(), reused.end());
    const uint64_t peak = status_kb("VmHWM:");
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    char buf[1536];
    const int len = std::snprintf(
        buf, sizeof buf,
        "{\"name\":\"%s\",\"level\":\"%s\",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"threads\":%llu,\"elements\":%llu,"
        "\"workers\":%u,\"repeats\":%d,\"first_ms\":%.2f,\"ms_min\":%.2f,\"ms_median\":%.2f,\"ms_max\":%.2f,"
        "\"threads_per_second_median\":%.4g,\"reused_ms_min\":%.2f,\"reused_ms_median\":%.2f,"
        "\"reused_threads_per_second_median\":%.4g,\"peak_rss_bytes\":%llu,\"rss_bytes_per_element\":%.2f}",
        c.name, values == OutputValues::Skipped ? "writers" : "values", launch.grid.x, launch.grid.y, launch.grid.z,
        launch.block.x, launch.block.y, launch.block.z, (unsigned long long)threads, (unsigned long long)elements,
        workers, repeats, ms.front(), sorted.front(), median, sorted.back(), double(threads) / (median / 1000),
        reused.front(), reused[reused.size() / 2], double(threads) / (reused[reused.size() / 2] / 1000),
        (unsigned long long)peak * 1024, double(peak - rss_before) * 1024 / double(elements));
    if (write(fd, buf, size_t(len)) != len) std::_Exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 7;
    if (argc == 3 && std::strcmp(argv[1], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[2]));
    const std::vector<Case> cases = {
        {"increment 1M", array_workload(&IncrementBody::kernel, 1 << 20), {256, 1, 1}},
        {"increment 16M", array_workload(&IncrementBody::kernel, 1 << 24), {256, 1, 1}},
        {"matmul 300x200x300", matmul_workload(&MatmulBody::kernel, 300, 300, 200), {32, 32, 1}},
        {"matmul-xcol 4096x4096, inner 16", matmul_workload(&MatmulXColBody::kernel, 4096, 4096, 16), {32, 32, 1}},
    };
    std::printf("{\"cores\":%u,\"cases\":[", std::thread::hardware_concurrency());
    for (size_t i = 0; i < 2 * cases.size(); ++i) {
        int fds[2];
        if (pipe(fds) != 0) return 1;
        std::fflush(stdout);
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            run_case(cases[i / 2], i % 2 ? OutputValues::Computed : OutputValues::Skipped, repeats, fds[1]);
            std::_Exit(0);
        }
        close(fds[1]);
        std::string line;
        char buf[512];
        for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) line.append(buf, size_t(n));
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || line.empty()) return 1;
        std::printf("%s\n  %s", i ? "," : "", line.c_str());
    }
    std::printf("\n]}\n");
    return 0;
}
