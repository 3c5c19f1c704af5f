// threadmap's entry point: every failure ends here as a message and an exit code.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "app/cli.hpp"

namespace {

// What a command printed must have reached its reader: a full disk or a closed pipe on
// stdout is a failure (exit 1), not a silent success. CLI11 prints --help through std::cout.
int checked_output(int code) {
    std::cout.flush();
    errno = 0;
    const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
    // A command that failed has said why already; one that succeeded (0) or reported findings
    // (3, `check`) has not reached its reader.
    if (!lost || (code != 0 && code != 3)) return code;
    std::fprintf(stderr, "threadmap: cannot write the output to stdout%s%s\n", errno ? ": " : "",
                 errno ? std::strerror(errno) : " (a full disk or a closed pipe)");
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    // A reader that closed the pipe (`threadmap map … | head -1`) is a failed write with its
    // reason, exit 1 (checked_output), not a death by SIGPIPE (exit 141).
    std::signal(SIGPIPE, SIG_IGN);
    try {
        return checked_output(threadmap::run_cli(argc, argv));
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "threadmap: out of memory\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "threadmap: internal error: %s\n", e.what());
    }
    return 1;
}
