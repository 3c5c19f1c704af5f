// An OpenGL 3.3 core context with no window and no display server, through EGL: Mesa's
// surfaceless platform where there is no GPU, or an EGL device (the NVIDIA driver's on GPU
// servers). Never GLFW: `threadmap render` must work with DISPLAY unset. libEGL.so.1 is
// probed with dlopen first: libepoxy aborts the process when it cannot load it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/outcome.hpp"

namespace threadmap {

// What an EGL device says about itself (EGL_EXT_device_query).
struct EglDeviceInfo {
    std::string extensions;          // EGL_EXTENSIONS of the device
    std::optional<int> cuda_device;  // EGL_CUDA_DEVICE_NV, where the device has EGL_NV_device_cuda
};

// The EGL devices to try, in order. With a CUDA device: only the EGL device that is that
// CUDA device (interop needs GL and CUDA on one GPU). Without: every device but software
// ones (EGL_MESA_device_software; Mesa's surfaceless platform covers software drawing).
std::vector<size_t> egl_devices_to_try(const std::vector<EglDeviceInfo>& devices, std::optional<int> cuda_device);

class OffscreenContext {
  public:
    // A current context, or what was tried and why it failed. cuda_device: draw on the EGL
    // device of that CUDA device (for CUDA-OpenGL interop), else on Mesa's surfaceless
    // platform, saying why in description(); none: surfaceless first, then any EGL device.
    static Outcome<std::unique_ptr<OffscreenContext>> open(std::optional<int> cuda_device = std::nullopt);
    ~OffscreenContext();
    OffscreenContext(const OffscreenContext&) = delete;
    OffscreenContext& operator=(const OffscreenContext&) = delete;

    // Platform and GL_RENDERER, and with a CUDA device asked for and not found, why not.
    const std::string& description() const { return description_; }
    bool on_cuda_device() const { return on_cuda_device_; }

  private:
    OffscreenContext();
    struct Egl;
    std::unique_ptr<Egl> egl_;
    std::string description_;
    bool on_cuda_device_ = false;
};

}  // namespace threadmap
