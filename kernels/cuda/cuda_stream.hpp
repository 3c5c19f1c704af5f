// A CUDA stream of one's own (for .cu files only). Non-blocking: it neither waits for the
// legacy default stream nor makes it wait, so the window's mapped launches, its interop
// paints and a bench running beside them each wait only for their own work.
#pragma once

#include "kernels/cuda/cuda_check.hpp"

namespace threadmap {

class CudaStream {
  public:
    explicit CudaStream(int device) : device_(device) {
        CUDA_CHECK(cudaSetDevice(device));
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    }
    ~CudaStream() { CUDA_LOG(cudaStreamDestroy(stream_)); }
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;

    cudaStream_t get() const { return stream_; }
    int device() const { return device_; }
    void synchronize() const { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  private:
    int device_;
    cudaStream_t stream_ = nullptr;
};

}  // namespace threadmap
