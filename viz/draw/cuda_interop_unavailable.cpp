// CUDA–OpenGL interop in a build without nvcc: always the host path, and why.
#include "viz/draw/cuda_interop.hpp"

namespace threadmap {

struct CudaGlPainter::Impl {};

CudaGlPainter::CudaGlPainter() = default;
CudaGlPainter::~CudaGlPainter() = default;

std::string CudaGlPainter::paint(CellGridRenderer&, const MapLayout&, const LaunchResult&, const ColorContext&) {
    return "built without CUDA: colours are painted on the host";
}

}  // namespace threadmap
