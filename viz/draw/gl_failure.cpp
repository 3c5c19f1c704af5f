// The first GL failure of this thread; see gl.hpp.
#include <cstdio>
#include <utility>

#include "viz/draw/gl.hpp"

namespace threadmap {

namespace {
thread_local std::string first_failure;
}  // namespace

void note_gl_failure(std::string why) {
    if (first_failure.empty()) first_failure = std::move(why);
}

void note_gl_error(GLenum error, const char* call, const char* file, int line) {
    char code[16];
    std::snprintf(code, sizeof code, "%04X", unsigned(error));
    note_gl_failure(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed with GL error 0x" + code);
}

Outcome<void> take_gl_failure() {
    if (first_failure.empty()) return done();
    return failed(std::exchange(first_failure, {}), Failure::Device);
}

}  // namespace threadmap
