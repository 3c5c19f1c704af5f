// CUDA–OpenGL interop for the map's colours: the GL buffer the shader reads is registered
// with CUDA (write-discard) once per size; each paint maps it, runs the same colorizer on
// the GPU, and unmaps before GL draws. Registration is undone before the buffer is
// reallocated or deleted. When interop is impossible (no device, no driver, GL on another
// GPU or in software: cudaErrorOperatingSystem / cudaErrorInvalidGraphicsContext) paint
// returns the reason and the caller paints on the host instead, saying so.
#pragma once

#include <memory>
#include <string>

#include "viz/draw/cell_grid_renderer.hpp"
#include "kernels/core/launch_result.hpp"

namespace threadmap {

class CudaGlPainter {
  public:
    CudaGlPainter();
    ~CudaGlPainter();  // destroy before the renderer: it unregisters the renderer's buffer
    CudaGlPainter(const CudaGlPainter&) = delete;
    CudaGlPainter& operator=(const CudaGlPainter&) = delete;

    // Paints the layout's colours into the renderer's buffer on the GPU, reading the map
    // where the CUDA executor left it (result.device_map). Returns "" when it did, or why
    // not (a host-made map, no interop; then nothing was written and CUDA's error state is
    // cleared).
    std::string paint(CellGridRenderer& renderer, const MapLayout& layout, const LaunchResult& result,
                      const ColorContext& color);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace threadmap
