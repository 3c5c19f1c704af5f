// TM_HD marks functions that compile for both host (g++) and device (nvcc), so the
// mapping maths and kernel bodies are written once and shared by emulator and GPU.
#pragma once

#if defined(__CUDACC__)
#define TM_HD __host__ __device__
#define TM_HD_INLINE __host__ __device__ __forceinline__
#else
#define TM_HD
#define TM_HD_INLINE inline __attribute__((always_inline))
#endif
