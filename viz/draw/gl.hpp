// The one way viz/ reaches OpenGL: libepoxy resolves entry points for whichever context is
// current, GLX (the window) or EGL (offscreen). GL_CHECK turns GL errors into exceptions.
#pragma once

#include <epoxy/gl.h>

#include <stdexcept>
#include <string>

namespace threadmap {

[[noreturn]] inline void throw_gl_error(GLenum error, const char* call, const char* file, int line) {
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed with GL error 0x" +
                             [&] {
                                 char buf[16];
                                 std::snprintf(buf, sizeof buf, "%04X", unsigned(error));
                                 return std::string(buf);
                             }());
}

}  // namespace threadmap

// Wraps a GL call and checks glGetError right after it.
#define GL_CHECK(call)                                                                 \
    do {                                                                               \
        call;                                                                          \
        if (const GLenum gl_check_error = glGetError(); gl_check_error != GL_NO_ERROR) \
            ::threadmap::throw_gl_error(gl_check_error, #call, __FILE__, __LINE__);    \
    } while (0)
