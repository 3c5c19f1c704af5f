// The window's framebuffer: bind it and clear it before ImGui draws a frame.
#pragma once

#include "viz/color/colors.hpp"

namespace threadmap {

inline constexpr Rgba8 kWindowBackground{16, 17, 20, 255};  // the window's and figures' background

void begin_window_frame(int framebuffer_width, int framebuffer_height, Rgba8 clear);
// Clears whichever framebuffer is bound (an export's RenderTarget) to `clear`.
void clear_bound_framebuffer(int width, int height, Rgba8 clear);

// Waits until the GPU (or llvmpipe) has finished the frame: benchmarks time real work.
void finish_gpu_work();

}  // namespace threadmap
