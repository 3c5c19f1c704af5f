// CUDA–OpenGL interop; see cuda_interop.hpp. <epoxy/gl.h> first: cuda_gl_interop.h needs
// GL's types and must not pull in a second GL header.
#include <epoxy/gl.h>

#include <cuda_gl_interop.h>

#include "cell_sample.hpp"
#include "cuda_check.hpp"
#include "cuda_interop.hpp"

namespace threadmap {

namespace {

__global__ void colorize_kernel(MapLayout m, const uint32_t* first, const uint32_t* touches, ColorContext color,
                                Rgba8* out) {
    const uint64_t cell = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (cell >= uint64_t(m.width) * m.height) return;
    const uint32_t x = uint32_t(cell % m.width), y = uint32_t(cell / m.width);
    const Dim3 grid = m.launch.grid, block = m.launch.block;
    const auto decode = [grid, block](uint32_t id) { return decode_global_id(id, grid, block); };
    out[cell] = colorize(sample_map_cell(m, first, touches, decode, x, y), color);
}

// One registration of a GL buffer with CUDA: registered in the constructor, unregistered
// in the destructor (before GL reallocates or deletes the buffer).
class Registration {
  public:
    explicit Registration(GLuint buffer) {
        CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource_, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
    }
    ~Registration() { CUDA_LOG(cudaGraphicsUnregisterResource(resource_)); }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    cudaGraphicsResource_t get() const { return resource_; }

  private:
    cudaGraphicsResource_t resource_ = nullptr;
};

// Maps a registration for one update; GL must not touch the buffer until it is unmapped.
class ScopedMapping {
  public:
    explicit ScopedMapping(cudaGraphicsResource_t r) : resource_(r) {
        CUDA_CHECK(cudaGraphicsMapResources(1, &resource_));
        size_t bytes = 0;
        CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&pointer_, &bytes, resource_));
    }
    ~ScopedMapping() { CUDA_LOG(cudaGraphicsUnmapResources(1, &resource_)); }
    ScopedMapping(const ScopedMapping&) = delete;
    ScopedMapping& operator=(const ScopedMapping&) = delete;
    void* pointer() const { return pointer_; }

  private:
    cudaGraphicsResource_t resource_;
    void* pointer_ = nullptr;
};

}  // namespace

struct CudaGlPainter::Impl {
    std::unique_ptr<Registration> registration;
    uint32_t width = 0, height = 0;
};

CudaGlPainter::CudaGlPainter() : impl_(std::make_unique<Impl>()) {}
CudaGlPainter::~CudaGlPainter() = default;

std::string CudaGlPainter::paint(CellGridRenderer& renderer, const MapLayout& m, const LaunchResult& result,
                                 const ColorContext& color) {
    if (m.width == 0 || m.height == 0) return "nothing to paint";  // a 0×0 map changes nothing
    if (!result.device_map) return "the map was made on the host";
    const DeviceMapView map = view_of(*result.device_map);
    try {
        CUDA_CHECK(cudaSetDevice(map.device));
        if (m.width != impl_->width || m.height != impl_->height || !impl_->registration) {
            impl_->registration.reset();  // unregister before GL reallocates the buffer
            const GLuint buffer = renderer.prepare_cells(m.width, m.height);
            impl_->registration = std::make_unique<Registration>(buffer);
            impl_->width = m.width;
            impl_->height = m.height;
        }
        {  // the executor's device buffers, read in place: the map never leaves the GPU
            ScopedMapping mapping(impl_->registration->get());
            const uint64_t cells = uint64_t(m.width) * m.height;
            colorize_kernel<<<unsigned((cells + 255) / 256), 256>>>(m, map.first_toucher, map.touches, color,
                                                                    static_cast<Rgba8*>(mapping.pointer()));
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        return {};
    } catch (const std::exception& e) {
        impl_->registration.reset();
        impl_->width = impl_->height = 0;
        cudaGetLastError();  // clear it: the host path takes over
        return std::string("CUDA-OpenGL interop unavailable: ") + e.what();
    }
}

}  // namespace threadmap
