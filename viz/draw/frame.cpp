// Window frame start; see frame.hpp.
#include "viz/draw/frame.hpp"

#include "viz/draw/gl.hpp"

namespace threadmap {

void begin_window_frame(int w, int h, Rgba8 c) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    clear_bound_framebuffer(w, h, c);
}

void clear_bound_framebuffer(int w, int h, Rgba8 c) {
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, w, h);
    glClearColor(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
}

void finish_gpu_work() { glFinish(); }

}  // namespace threadmap
