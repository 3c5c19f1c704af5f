// Runs the binary under test; see run_binary.hpp. THREADMAP_BINARY comes from CMake.
#include "tests/run_binary.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

const char* threadmap_binary() { return THREADMAP_BINARY; }

RunResult run_threadmap(const std::vector<std::string>& args, const std::vector<std::string>& env,
                        const std::string& launcher, const std::string& stdout_to) {
    const std::string base = "/tmp/threadmap-test-" + std::to_string(getpid());
    std::string cmd = "env";
    for (const auto& e : env) cmd += " " + e;
    cmd += " timeout 120 " + launcher + " " + quote(THREADMAP_BINARY);
    for (const auto& a : args) cmd += " " + quote(a);
    cmd += " >" + (stdout_to.empty() ? base + ".out" : quote(stdout_to)) + " 2>" + base + ".err </dev/null";
    const int status = std::system(cmd.c_str());
    RunResult r;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    r.out = slurp(base + ".out");
    r.err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return r;
}

std::string temp_source_file(const std::string& name, const std::string& text) {
    const std::string path = "/tmp/threadmap-test-" + std::to_string(getpid()) + "-" + name;
    std::ofstream(path) << text;
    return path;
}
