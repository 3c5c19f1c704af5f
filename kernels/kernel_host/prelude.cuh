// threadmap's CUDA prelude: what a learner's kernel sees when threadmap compiles it on the CPU
// (kernels/kernel_host/source_compiler.cpp includes it before the first line, so the learner's line
// numbers stay their own). The keywords become plain C++; the built-in variables read the
// running thread's indices; __syncthreads(), the warp functions and the atomics call the kernel
// model, which also sees every load and store through a pointer or of a __shared__ array (the
// compiler instruments them). Nothing else of the host can be called.

#define __global__ __attribute__((annotate("threadmap_global")))
// A __device__ variable (any variable of numbers at the file's scope that is not const) is an
// array of the launch at a slot of its own, its reads and writes recorded (source_compiler.cpp).
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
// A __shared__ array is made static by the compiler (one per block, kept by the kernel model);
// `extern __shared__ float s[];` is the launch's dynamic shared memory.
#define __shared__ __attribute__((annotate("threadmap_shared")))
// A __constant__ variable is an array of the launch at a slot of its own, holding its
// initializer or its binding (no host fills it here); a kernel that writes it is refused, as
// reads are all a kernel can do with it on a GPU.
#define __constant__ __attribute__((annotate("threadmap_constant")))

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
// Device code's memset and memcpy: on an array, a store (and load) per element. Macros, so
// that the accesses are the learner's line.
#define memset(p, value, bytes) __builtin_memset(p, value, bytes)
#define memcpy(to, from, bytes) __builtin_memcpy(to, from, bytes)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;

struct uint3 {
    unsigned int x, y, z;
};

// CUDA's vector types, aligned as CUDA aligns them, and their make_ functions. An array of
// numbers read or written through a pointer to one (a float4 through reinterpret_cast) is one
// vector access per lane, as on a GPU (source_hooks.cpp).
#define __THREADMAP_VECTOR2(T, NAME, ALIGN)                   \
    struct __attribute__((aligned(ALIGN))) NAME##2 {         \
        T x, y;                                                \
    };                                                         \
    inline NAME##2 make_##NAME##2(T x, T y) { return {x, y}; }
#define __THREADMAP_VECTOR3(T, NAME)                               \
    struct NAME##3 {                                               \
        T x, y, z;                                                 \
    };                                                             \
    inline NAME##3 make_##NAME##3(T x, T y, T z) { return {x, y, z}; }
#define __THREADMAP_VECTOR4(T, NAME, ALIGN)                                    \
    struct __attribute__((aligned(ALIGN))) NAME##4 {                          \
        T x, y, z, w;                                                           \
    };                                                                          \
    inline NAME##4 make_##NAME##4(T x, T y, T z, T w) { return {x, y, z, w}; }
__THREADMAP_VECTOR2(float, float, 8)
__THREADMAP_VECTOR3(float, float)
__THREADMAP_VECTOR4(float, float, 16)
__THREADMAP_VECTOR2(int, int, 8)
__THREADMAP_VECTOR3(int, int)
__THREADMAP_VECTOR4(int, int, 16)
__THREADMAP_VECTOR2(unsigned int, uint, 8)
__THREADMAP_VECTOR4(unsigned int, uint, 16)
__THREADMAP_VECTOR2(double, double, 16)
__THREADMAP_VECTOR3(double, double)
__THREADMAP_VECTOR2(signed char, char, 2)
__THREADMAP_VECTOR4(signed char, char, 4)
__THREADMAP_VECTOR2(unsigned char, uchar, 2)
__THREADMAP_VECTOR3(unsigned char, uchar)
__THREADMAP_VECTOR4(unsigned char, uchar, 4)
__THREADMAP_VECTOR2(short, short, 4)
__THREADMAP_VECTOR4(short, short, 8)
__THREADMAP_VECTOR2(unsigned short, ushort, 4)
__THREADMAP_VECTOR4(unsigned short, ushort, 8)
__THREADMAP_VECTOR2(long long, longlong, 16)
__THREADMAP_VECTOR2(unsigned long long, ulonglong, 16)
#undef __THREADMAP_VECTOR2
#undef __THREADMAP_VECTOR3
#undef __THREADMAP_VECTOR4
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return {x, y, z}; }
struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

// The running thread's indices: set by the kernel model before each thread runs and after
// each barrier (one plain global: a thread_local made the compiled code three times slower).
struct __threadmap_context_t {
    uint3 threadIdx, blockIdx, blockDim, gridDim;
};
extern "C" __threadmap_context_t __threadmap_context;
#define threadIdx (__threadmap_context.threadIdx)
#define blockIdx (__threadmap_context.blockIdx)
#define blockDim (__threadmap_context.blockDim)
#define gridDim (__threadmap_context.gridDim)
#define warpSize 32

// Where the running thread is in its loops, for the memory view: the compiler calls these
// around every loop with an access (kernels/model/loop_nest.hpp), and inlines them.
#include "/threadmap/kernels/model/loop_nest.hpp"
extern "C" __threadmap_loop_nest* __threadmap_loops;
extern "C" __attribute__((used)) inline unsigned __threadmap_loop_enter(unsigned loop) {
    return __threadmap_loops->enter(loop);
}
extern "C" __attribute__((used)) inline void __threadmap_loop_next() { __threadmap_loops->next(); }
extern "C" __attribute__((used)) inline void __threadmap_loop_exit(unsigned depth) { __threadmap_loops->leave(depth); }
extern "C" __attribute__((used)) inline unsigned __threadmap_loop_depth() { return __threadmap_loops->depth; }

extern "C" void __threadmap_syncthreads(int line);
#define __syncthreads() __threadmap_syncthreads(__LINE__)
extern "C" int __threadmap_syncthreads_count(int predicate, int line);
#define __syncthreads_count(predicate) __threadmap_syncthreads_count((predicate) != 0, __LINE__)
#define __syncthreads_and(predicate) \
    (__threadmap_syncthreads_count((predicate) != 0, __LINE__) == (int)(blockDim.x * blockDim.y * blockDim.z))
#define __syncthreads_or(predicate) (__threadmap_syncthreads_count((predicate) != 0, __LINE__) != 0)

// CUDA's printf: the text is kept (the first 64 KiB) and shown with the run's result, in the
// order the model runs the threads; Clang checks the arguments against the format.
extern "C" int __threadmap_printf(int line, const char* format, ...) __attribute__((format(printf, 2, 3)));
#define printf(...) __threadmap_printf(__LINE__, __VA_ARGS__)

// CUDA's device assert (<assert.h>, <cassert>, or none: nvcc's CUDA headers bring it): a failed
// one prints CUDA's line and stops the kernel.
extern "C" void __threadmap_assert(int line, const char* expression) __attribute__((noreturn));
#define assert(e) ((e) ? (void)0 : __threadmap_assert(__LINE__, #e))

// op: the kernel model's AtomicOp (0 add, 1 max, 2 compare-and-swap, 3 unsigned max, 4 min,
// 5 unsigned min, 6 exchange, 7 and, 8 or, 9 xor, 10 inc, 11 dec); is_float for float and
// double adds; bytes: 4 or 8. The old
// value comes back. CUDA's overloads: 32-bit int, unsigned, float; 64-bit unsigned long long,
// long long (max, min) and double (add).
extern "C" unsigned long long __threadmap_atomic(void* address, int op, int is_float, int bytes,
                                                 unsigned long long operand, unsigned long long compare, int line);
template <class T>
inline unsigned long long __threadmap_bits(T v) {
    if constexpr (sizeof(T) == 4)
        return __builtin_bit_cast(unsigned int, v);
    else
        return __builtin_bit_cast(unsigned long long, v);
}
template <class T>
inline T __threadmap_from_bits(unsigned long long b) {
    if constexpr (sizeof(T) == 4)
        return __builtin_bit_cast(T, (unsigned int)b);
    else
        return __builtin_bit_cast(T, b);
}
#define __THREADMAP_ATOMIC(T, NAME, OP, IS_FLOAT)                                                               \
    inline T __threadmap_##NAME(int line, T* address, T value) {                                              \
        return __threadmap_from_bits<T>(                                                                      \
            __threadmap_atomic(address, OP, IS_FLOAT, sizeof(T), __threadmap_bits(value), 0ull, line));        \
    }
__THREADMAP_ATOMIC(int, atomicAdd, 0, 0)
__THREADMAP_ATOMIC(unsigned int, atomicAdd, 0, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicAdd, 0, 0)
__THREADMAP_ATOMIC(float, atomicAdd, 0, 1)
__THREADMAP_ATOMIC(double, atomicAdd, 0, 1)
__THREADMAP_ATOMIC(int, atomicMax, 1, 0)
__THREADMAP_ATOMIC(long long, atomicMax, 1, 0)
__THREADMAP_ATOMIC(unsigned int, atomicMax, 3, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicMax, 3, 0)
__THREADMAP_ATOMIC(int, atomicMin, 4, 0)
__THREADMAP_ATOMIC(long long, atomicMin, 4, 0)
__THREADMAP_ATOMIC(unsigned int, atomicMin, 5, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicMin, 5, 0)
__THREADMAP_ATOMIC(int, atomicExch, 6, 0)
__THREADMAP_ATOMIC(unsigned int, atomicExch, 6, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicExch, 6, 0)
__THREADMAP_ATOMIC(float, atomicExch, 6, 1)
__THREADMAP_ATOMIC(int, atomicAnd, 7, 0)
__THREADMAP_ATOMIC(unsigned int, atomicAnd, 7, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicAnd, 7, 0)
__THREADMAP_ATOMIC(int, atomicOr, 8, 0)
__THREADMAP_ATOMIC(unsigned int, atomicOr, 8, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicOr, 8, 0)
__THREADMAP_ATOMIC(int, atomicXor, 9, 0)
__THREADMAP_ATOMIC(unsigned int, atomicXor, 9, 0)
__THREADMAP_ATOMIC(unsigned long long, atomicXor, 9, 0)
__THREADMAP_ATOMIC(unsigned int, atomicInc, 10, 0)
__THREADMAP_ATOMIC(unsigned int, atomicDec, 11, 0)
#undef __THREADMAP_ATOMIC
inline int __threadmap_atomicSub(int line, int* address, int value) {
    return __threadmap_atomicAdd(line, address, -value);
}
inline unsigned int __threadmap_atomicSub(int line, unsigned int* address, unsigned int value) {
    return __threadmap_atomicAdd(line, address, 0u - value);
}
template <class T>
inline T __threadmap_cas(int line, T* address, T compare, T value) {
    return __threadmap_from_bits<T>(__threadmap_atomic(address, 2, 0, sizeof(T), __threadmap_bits(value),
                                                       __threadmap_bits(compare), line));
}
inline int __threadmap_atomicCAS(int line, int* address, int compare, int value) {
    return __threadmap_cas(line, address, compare, value);
}
inline unsigned int __threadmap_atomicCAS(int line, unsigned int* address, unsigned int compare,
                                          unsigned int value) {
    return __threadmap_cas(line, address, compare, value);
}
inline unsigned long long __threadmap_atomicCAS(int line, unsigned long long* address, unsigned long long compare,
                                                unsigned long long value) {
    return __threadmap_cas(line, address, compare, value);
}
#define atomicAdd(...) __threadmap_atomicAdd(__LINE__, __VA_ARGS__)
#define atomicSub(...) __threadmap_atomicSub(__LINE__, __VA_ARGS__)
#define atomicMax(...) __threadmap_atomicMax(__LINE__, __VA_ARGS__)
#define atomicMin(...) __threadmap_atomicMin(__LINE__, __VA_ARGS__)
#define atomicExch(...) __threadmap_atomicExch(__LINE__, __VA_ARGS__)
#define atomicCAS(...) __threadmap_atomicCAS(__LINE__, __VA_ARGS__)
#define atomicAnd(...) __threadmap_atomicAnd(__LINE__, __VA_ARGS__)
#define atomicOr(...) __threadmap_atomicOr(__LINE__, __VA_ARGS__)
#define atomicXor(...) __threadmap_atomicXor(__LINE__, __VA_ARGS__)
#define atomicInc(...) __threadmap_atomicInc(__LINE__, __VA_ARGS__)
#define atomicDec(...) __threadmap_atomicDec(__LINE__, __VA_ARGS__)

// CUDA's math functions a course uses (single and double precision).
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline float min(float a, float b) { return a < b ? a : b; }
inline double min(double a, double b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline float max(float a, float b) { return a > b ? a : b; }
inline double max(double a, double b) { return a > b ? a : b; }
inline int abs(int a) { return a < 0 ? -a : a; }
#define __THREADMAP_MATH1(NAME)                                      \
    inline float NAME##f(float x) { return __builtin_##NAME##f(x); } \
    inline double NAME(double x) { return __builtin_##NAME(x); }
__THREADMAP_MATH1(sqrt)
__THREADMAP_MATH1(fabs)
__THREADMAP_MATH1(floor)
__THREADMAP_MATH1(ceil)
__THREADMAP_MATH1(round)
__THREADMAP_MATH1(trunc)
__THREADMAP_MATH1(rint)
__THREADMAP_MATH1(exp)
__THREADMAP_MATH1(exp2)
__THREADMAP_MATH1(log)
__THREADMAP_MATH1(log2)
__THREADMAP_MATH1(log10)
__THREADMAP_MATH1(sin)
__THREADMAP_MATH1(cos)
__THREADMAP_MATH1(tan)
__THREADMAP_MATH1(tanh)
__THREADMAP_MATH1(asin)
__THREADMAP_MATH1(acos)
__THREADMAP_MATH1(atan)
__THREADMAP_MATH1(sinh)
__THREADMAP_MATH1(cosh)
__THREADMAP_MATH1(expm1)
__THREADMAP_MATH1(log1p)
__THREADMAP_MATH1(cbrt)
__THREADMAP_MATH1(erf)
#undef __THREADMAP_MATH1
#define __THREADMAP_MATH2(NAME)                                                    \
    inline float NAME##f(float x, float y) { return __builtin_##NAME##f(x, y); } \
    inline double NAME(double x, double y) { return __builtin_##NAME(x, y); }
__THREADMAP_MATH2(fmin)
__THREADMAP_MATH2(fmax)
__THREADMAP_MATH2(pow)
__THREADMAP_MATH2(atan2)
__THREADMAP_MATH2(fmod)
__THREADMAP_MATH2(hypot)
__THREADMAP_MATH2(copysign)
#undef __THREADMAP_MATH2
// Fused, as on a GPU (the rest of the kernel is compiled without contraction).
inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
inline float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return __builtin_expf(x); }
// CUDA's integer intrinsics.
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
// Reinterpretations of a value's bits (the Programming Guide's atomicAdd for double through
// atomicCAS uses the last two).
inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
inline unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
inline float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
// A load through the read-only cache is a load (recorded like any other).
template <class T>
inline T __ldg(const T* p) {
    return *p;
}
// Memory fences order a thread's accesses as other threads see them; the model runs one
// thread at a time, so every access is seen in order already.
inline void __threadfence() {}
inline void __threadfence_block() {}
inline void __threadfence_system() {}
// Warp-level functions: a lane waits until every non-exited lane its mask names calls one of
// the same kind with the same mask, then all get their results (the kernel model runs the
// block's threads as fibers for this; kernels/model/warp_collective.hpp has the rules). op: the
// model's WarpOp (0 __syncwarp, 1-4 shuffle idx/up/down/xor, 5 ballot, 6 any, 7 all, 8 uni,
// 9-16 reductions add/min/max/unsigned min/unsigned max/and/or/xor, 17 match any, 18 match all).
extern "C" unsigned long long __threadmap_warp(int op, unsigned mask, unsigned long long value, unsigned arg,
                                               int width, int line);
#define __THREADMAP_SHUFFLE(T)                                                                              \
    inline T __threadmap_shfl(int line, int op, unsigned mask, T var, int arg, int width = warpSize) {     \
        return __threadmap_from_bits<T>(__threadmap_warp(op, mask, __threadmap_bits(var), arg, width, line)); \
    }                                                                                                       \
    inline unsigned __threadmap_match_any(int line, unsigned mask, T value) {                               \
        return (unsigned)__threadmap_warp(17, mask, __threadmap_bits(value), 0, warpSize, line);             \
    }                                                                                                       \
    inline unsigned __threadmap_match_all(int line, unsigned mask, T value, int* pred) {                    \
        const unsigned m = (unsigned)__threadmap_warp(18, mask, __threadmap_bits(value), 0, warpSize, line); \
        *pred = m != 0;                                                                                     \
        return m;                                                                                           \
    }
__THREADMAP_SHUFFLE(int)
__THREADMAP_SHUFFLE(unsigned int)
__THREADMAP_SHUFFLE(long)
__THREADMAP_SHUFFLE(unsigned long)
__THREADMAP_SHUFFLE(long long)
__THREADMAP_SHUFFLE(unsigned long long)
__THREADMAP_SHUFFLE(float)
__THREADMAP_SHUFFLE(double)
#undef __THREADMAP_SHUFFLE
#define __shfl_sync(...) __threadmap_shfl(__LINE__, 1, __VA_ARGS__)
#define __shfl_up_sync(...) __threadmap_shfl(__LINE__, 2, __VA_ARGS__)
#define __shfl_down_sync(...) __threadmap_shfl(__LINE__, 3, __VA_ARGS__)
#define __shfl_xor_sync(...) __threadmap_shfl(__LINE__, 4, __VA_ARGS__)
#define __match_any_sync(...) __threadmap_match_any(__LINE__, __VA_ARGS__)
#define __match_all_sync(...) __threadmap_match_all(__LINE__, __VA_ARGS__)
inline unsigned __threadmap_vote(int line, int op, unsigned mask, int predicate) {
    return (unsigned)__threadmap_warp(op, mask, predicate != 0, 0, warpSize, line);
}
#define __ballot_sync(...) __threadmap_vote(__LINE__, 5, __VA_ARGS__)
#define __any_sync(...) ((int)__threadmap_vote(__LINE__, 6, __VA_ARGS__))
#define __all_sync(...) ((int)__threadmap_vote(__LINE__, 7, __VA_ARGS__))
#define __uni_sync(...) ((int)__threadmap_vote(__LINE__, 8, __VA_ARGS__))
#define __THREADMAP_REDUCE(NAME, T, OP)                                      \
    inline T __threadmap_##NAME(int line, unsigned mask, T value) {        \
        return (T)__threadmap_warp(OP, mask, (unsigned)value, 0, warpSize, line); \
    }
__THREADMAP_REDUCE(reduce_add, unsigned, 9)
__THREADMAP_REDUCE(reduce_add, int, 9)
__THREADMAP_REDUCE(reduce_min, int, 10)
__THREADMAP_REDUCE(reduce_max, int, 11)
__THREADMAP_REDUCE(reduce_min, unsigned, 12)
__THREADMAP_REDUCE(reduce_max, unsigned, 13)
__THREADMAP_REDUCE(reduce_and, unsigned, 14)
__THREADMAP_REDUCE(reduce_or, unsigned, 15)
__THREADMAP_REDUCE(reduce_xor, unsigned, 16)
#undef __THREADMAP_REDUCE
#define __reduce_add_sync(...) __threadmap_reduce_add(__LINE__, __VA_ARGS__)
#define __reduce_min_sync(...) __threadmap_reduce_min(__LINE__, __VA_ARGS__)
#define __reduce_max_sync(...) __threadmap_reduce_max(__LINE__, __VA_ARGS__)
#define __reduce_and_sync(...) __threadmap_reduce_and(__LINE__, __VA_ARGS__)
#define __reduce_or_sync(...) __threadmap_reduce_or(__LINE__, __VA_ARGS__)
#define __reduce_xor_sync(...) __threadmap_reduce_xor(__LINE__, __VA_ARGS__)
// __syncwarp() or __syncwarp(mask): orders the memory accesses of the lanes that meet there.
struct __threadmap_syncwarp_at {
    int line;
    void operator()(unsigned mask = 0xffffffffu) const { __threadmap_warp(0, mask, 0, 0, warpSize, line); }
};
#define __syncwarp(...) (__threadmap_syncwarp_at{__LINE__}(__VA_ARGS__))
// What the model cannot give: which lanes happen to run together at a moment (it runs a block's
// threads one after another), and the warp functions CUDA 9 removed for Volta and later.
#define __THREADMAP_REFUSED(NAME, WHY) int NAME(...) __attribute__((unavailable(WHY)));
__THREADMAP_REFUSED(__activemask,
                    "__activemask() tells which lanes happen to run together at that moment on a GPU, which "
                    "threadmap's model, running a block's threads one after another, cannot know: give the mask "
                    "your code means (0xffffffff, or __ballot_sync(0xffffffff, condition))")
#define __THREADMAP_REMOVED(NAME)                                                                          \
    __THREADMAP_REFUSED(NAME, #NAME " without _sync was removed in CUDA 9 for Volta and later GPUs: use " #NAME \
                              "_sync with a mask (0xffffffff for the whole warp)")
__THREADMAP_REMOVED(__shfl)
__THREADMAP_REMOVED(__shfl_up)
__THREADMAP_REMOVED(__shfl_down)
__THREADMAP_REMOVED(__shfl_xor)
__THREADMAP_REMOVED(__ballot)
__THREADMAP_REMOVED(__any)
__THREADMAP_REMOVED(__all)
#undef __THREADMAP_REMOVED
#undef __THREADMAP_REFUSED
#define INFINITY __builtin_huge_valf()
#define NAN __builtin_nanf("")
#define HUGE_VALF __builtin_huge_valf()
#define HUGE_VAL __builtin_huge_val()
// glibc's <math.h> constants, which nvcc's implicit CUDA headers bring into every file.
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
