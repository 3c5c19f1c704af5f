// threadmap's entry point: every failure ends here as a message and an exit code.
#include <cstdio>
#include <exception>
#include <new>

#include "cli.hpp"

int main(int argc, char** argv) {
    try {
        return threadmap::run_cli(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "threadmap: out of memory\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "threadmap: internal error: %s\n", e.what());
    }
    return 1;
}
