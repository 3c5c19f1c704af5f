// CUDA–OpenGL interop; see cuda_interop.hpp. <epoxy/gl.h> first: cuda_gl_interop.h needs
// GL's types and must not pull in a second GL header.
#include <epoxy/gl.h>

#include <cuda_gl_interop.h>

#include "viz/layout/cell_sample.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "viz/draw/cuda_interop.hpp"
#include "kernels/cuda/cuda_stream.hpp"

namespace threadmap {

namespace {

__global__ void colorize_kernel(MapLayout layout, const uint32_t* first, const uint32_t* touches, ColorContext color,
                                Rgba8* out) {
    const uint64_t cell = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (cell >= uint64_t(layout.width) * layout.height) return;
    const uint32_t x = uint32_t(cell % layout.width), y = uint32_t(cell / layout.width);
    const Dim3 grid = layout.launch.grid, block = layout.launch.block;
    const auto decode = [grid, block](uint32_t id) { return decode_global_id(id, grid, block); };
    out[cell] = colorize(sample_map_cell(layout, first, touches, decode, x, y), color);
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

// Maps a registration for one update on `stream`; GL must not touch the buffer until it is
// unmapped (which waits for the stream's work on it).
class ScopedMapping {
  public:
    ScopedMapping(cudaGraphicsResource_t r, cudaStream_t stream) : resource_(r), stream_(stream) {
        CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream_));
        size_t bytes = 0;
        CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&pointer_, &bytes, resource_));
    }
    ~ScopedMapping() { CUDA_LOG(cudaGraphicsUnmapResources(1, &resource_, stream_)); }
    ScopedMapping(const ScopedMapping&) = delete;
    ScopedMapping& operator=(const ScopedMapping&) = delete;
    void* pointer() const { return pointer_; }

  private:
    cudaGraphicsResource_t resource_;
    cudaStream_t stream_;
    void* pointer_ = nullptr;
};

}  // namespace

struct CudaGlPainter::Impl {
    std::unique_ptr<CudaStream> stream;  // paints wait for their own work, never a bench's
    std::unique_ptr<Registration> registration;
    uint32_t width = 0, height = 0;
    uint64_t storage = 0;  // the renderer's storage_generation() it registered
    // A failure is remembered for its size: the same paint is not retried every frame (a
    // registration is slow to fail), a new size tries once more.
    std::string failed;
    uint32_t failed_width = 0, failed_height = 0;
};

CudaGlPainter::CudaGlPainter() : impl_(std::make_unique<Impl>()) {}
CudaGlPainter::~CudaGlPainter() = default;

std::string CudaGlPainter::paint(CellGridRenderer& renderer, const MapLayout& layout, const LaunchResult& result,
                                 const ColorContext& color) {
    if (layout.width == 0 || layout.height == 0) return "nothing to paint";  // a 0×0 map changes nothing
    if (!result.device_map) return "the map was made on the host";
    Impl& p = *impl_;
    if (!p.failed.empty() && layout.width == p.failed_width && layout.height == p.failed_height) return p.failed;
    const DeviceMapView map = view_of(*result.device_map);
    try {
        CUDA_CHECK(cudaSetDevice(map.device));
        if (!p.stream || p.stream->device() != map.device) p.stream = std::make_unique<CudaStream>(map.device);
        // Registered anew for another size, or when the host's painting gave the buffer new
        // storage since (a kernel model's map on this backend, at another size).
        if (layout.width != p.width || layout.height != p.height || !p.registration ||
            p.storage != renderer.storage_generation()) {
            p.registration.reset();  // unregister before GL reallocates the buffer
            p.width = p.height = 0;
            const GLuint buffer = renderer.prepare_cells(layout.width, layout.height);
            p.registration = std::make_unique<Registration>(buffer);
            p.width = layout.width;
            p.height = layout.height;
            p.storage = renderer.storage_generation();
        }
        {  // the executor's device buffers, read in place: the map never leaves the GPU
            ScopedMapping mapping(p.registration->get(), p.stream->get());
            const uint64_t cells = uint64_t(layout.width) * layout.height;
            colorize_kernel<<<unsigned((cells + 255) / 256), 256, 0, p.stream->get()>>>(
                layout, map.first_toucher, map.touches, color, static_cast<Rgba8*>(mapping.pointer()));
            CUDA_CHECK(cudaGetLastError());
            p.stream->synchronize();
        }
        p.failed.clear();
        return {};
    } catch (const std::exception& e) {
        p.registration.reset();
        p.width = p.height = 0;
        cudaGetLastError();  // clear it: the host path takes over
        p.failed = std::string("CUDA-OpenGL interop unavailable: ") + e.what();
        p.failed_width = layout.width;
        p.failed_height = layout.height;
        return p.failed;
    }
}

}  // namespace threadmap
