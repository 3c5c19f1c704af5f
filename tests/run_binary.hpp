// Runs the real threadmap binary as a user would, capturing exit code, stdout and stderr.
#pragma once

#include <string>
#include <vector>

struct RunResult {
    int exit_code = -1;  // -1: did not exit normally (crashed or was killed)
    std::string out;
    std::string err;
};

// env: extra "NAME=value" assignments (or "-u NAME" to unset) passed through env(1).
// launcher: words put before the binary, e.g. an xvfb-run command line.
// stdout_to: where stdout goes instead of `out` (e.g. /dev/full, a disk that is full).
// The path of the binary under test (for a test's own shell command line).
const char* threadmap_binary();

RunResult run_threadmap(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                        const std::string& launcher = "", const std::string& stdout_to = "");

// A file the binary can read: `text` written under /tmp with this process's id and `name`.
std::string temp_source_file(const std::string& name, const std::string& text);
