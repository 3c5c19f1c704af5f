// An OpenGL 3.3 core context with no window and no display server, through EGL: Mesa's
// surfaceless platform where there is no GPU, or an EGL device (the NVIDIA driver's on GPU
// servers). Never GLFW: `threadmap render` must work with DISPLAY unset.
#pragma once

#include <memory>
#include <string>

namespace threadmap {

class OffscreenContext {
  public:
    // Throws std::runtime_error saying what was tried and why it failed. prefer_device: try
    // EGL devices (the NVIDIA driver's, which CUDA interop needs) before Mesa's surfaceless.
    explicit OffscreenContext(bool prefer_device = false);
    ~OffscreenContext();
    OffscreenContext(const OffscreenContext&) = delete;
    OffscreenContext& operator=(const OffscreenContext&) = delete;

    const std::string& description() const { return description_; }  // platform and GL_RENDERER

  private:
    struct Egl;
    std::unique_ptr<Egl> egl_;
    std::string description_;
};

}  // namespace threadmap
