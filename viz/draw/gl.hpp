// The one way viz/ reaches OpenGL: libepoxy resolves entry points for whichever context is
// current, GLX (the window) or EGL (offscreen).
//
// GL failures are kept the way GL keeps its own error flag: the first one since it was last
// taken is remembered (per thread: one context per thread) and drawing goes on harmlessly.
// Whoever finishes a frame or a figure takes it (take_gl_failure) before trusting its pixels,
// so no exception crosses from viz/ into the app.
#pragma once

#include <epoxy/gl.h>

#include <string>

#include "kernels/core/outcome.hpp"

namespace threadmap {

// Keeps `why` unless an earlier failure is still untaken.
void note_gl_failure(std::string why);
void note_gl_error(GLenum error, const char* call, const char* file, int line);
// The first failure since the last take (Failure::Device), or done; clears it.
Outcome<void> take_gl_failure();

}  // namespace threadmap

// Wraps a GL call and checks glGetError right after it.
#define GL_CHECK(call)                                                                 \
    do {                                                                               \
        call;                                                                          \
        if (const GLenum gl_check_error = glGetError(); gl_check_error != GL_NO_ERROR) \
            ::threadmap::note_gl_error(gl_check_error, #call, __FILE__, __LINE__);     \
    } while (0)
