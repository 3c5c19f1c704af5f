#include "kernels/kernel_host/standard_headers.hpp"

namespace threadmap {

namespace {

// From Clang's own predefined macros, which describe the target as the host compiler's
// headers would (x86-64: char is signed, long is 8 bytes), as nvcc follows the host.
constexpr const char* kFloatLimits = R"(#pragma once
#define FLT_RADIX __FLT_RADIX__
#define FLT_MANT_DIG __FLT_MANT_DIG__
#define FLT_DIG __FLT_DIG__
#define FLT_EPSILON __FLT_EPSILON__
#define FLT_MIN __FLT_MIN__
#define FLT_MAX __FLT_MAX__
#define FLT_TRUE_MIN __FLT_DENORM_MIN__
#define DBL_MANT_DIG __DBL_MANT_DIG__
#define DBL_DIG __DBL_DIG__
#define DBL_EPSILON __DBL_EPSILON__
#define DBL_MIN __DBL_MIN__
#define DBL_MAX __DBL_MAX__
#define DBL_TRUE_MIN __DBL_DENORM_MIN__
)";

constexpr const char* kIntegerLimits = R"(#pragma once
#define CHAR_BIT __CHAR_BIT__
#define SCHAR_MAX __SCHAR_MAX__
#define SCHAR_MIN (-__SCHAR_MAX__ - 1)
#define UCHAR_MAX (__SCHAR_MAX__ * 2 + 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define SHRT_MAX __SHRT_MAX__
#define SHRT_MIN (-__SHRT_MAX__ - 1)
#define USHRT_MAX (__SHRT_MAX__ * 2 + 1)
#define INT_MAX __INT_MAX__
#define INT_MIN (-__INT_MAX__ - 1)
#define UINT_MAX (__INT_MAX__ * 2U + 1U)
#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-__LONG_MAX__ - 1L)
#define ULONG_MAX (__LONG_MAX__ * 2UL + 1UL)
#define LLONG_MAX __LONG_LONG_MAX__
#define LLONG_MIN (-__LONG_LONG_MAX__ - 1LL)
#define ULLONG_MAX (__LONG_LONG_MAX__ * 2ULL + 1ULL)
)";

constexpr const char* kFixedWidthLimits = R"(#pragma once
#define INT8_MAX __INT8_MAX__
#define INT16_MAX __INT16_MAX__
#define INT32_MAX __INT32_MAX__
#define INT64_MAX __INT64_MAX__
#define INT8_MIN (-INT8_MAX - 1)
#define INT16_MIN (-INT16_MAX - 1)
#define INT32_MIN (-INT32_MAX - 1)
#define INT64_MIN (-INT64_MAX - 1)
#define UINT8_MAX __UINT8_MAX__
#define UINT16_MAX __UINT16_MAX__
#define UINT32_MAX __UINT32_MAX__
#define UINT64_MAX __UINT64_MAX__
#define SIZE_MAX __SIZE_MAX__
#define INTPTR_MAX __INTPTR_MAX__
#define UINTPTR_MAX __UINTPTR_MAX__
)";

// The toolkit's math_constants.h: the ones a course uses (its values).
constexpr const char* kMathConstants = R"(#pragma once
#define CUDART_INF_F __int_as_float(0x7f800000U)
#define CUDART_NAN_F __int_as_float(0x7fffffffU)
#define CUDART_PI_F 3.141592654F
#define CUDART_PIO2_F 1.570796327F
#define CUDART_SQRT_HALF_F 0.707106781F
#define CUDART_INF __longlong_as_double(0x7ff0000000000000ULL)
#define CUDART_NAN __longlong_as_double(0xfff8000000000000ULL)
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2 1.5707963267948966e+0
#define CUDART_SQRT_HALF 7.0710678118654757e-1
)";

constexpr StandardHeader kHeaders[] = {
    {"stdio.h", ""},
    {"cstdio", ""},
    {"stdlib.h", ""},
    {"cstdlib", ""},
    {"math.h", ""},
    {"cmath", ""},
    {"stdint.h", kFixedWidthLimits},
    {"cstdint", kFixedWidthLimits},
    {"stddef.h", ""},
    {"cstddef", ""},
    {"float.h", kFloatLimits},
    {"cfloat", kFloatLimits},
    {"limits.h", kIntegerLimits},
    {"climits", kIntegerLimits},
    {"assert.h", ""},
    {"cassert", ""},
    {"cuda.h", ""},
    {"cuda_runtime.h", ""},
    {"cuda_runtime_api.h", ""},
    {"device_launch_parameters.h", ""},
    {"device_functions.h", ""},
    {"math_constants.h", kMathConstants},
    // Cooperative groups: the thread block and its tiles (kernels/kernel_host/cooperative_groups.h).
    {"cooperative_groups.h", nullptr, "cooperative_groups.h"},
    {"cooperative_groups/reduce.h", nullptr, "cooperative_groups.h"},
    // __half and __half2 (kernels/kernel_host/cuda_fp16.h).
    {"cuda_fp16.h", nullptr, "cuda_fp16.h"},
    // __nv_bfloat16 and __nv_bfloat162 (kernels/kernel_host/cuda_bf16.h).
    {"cuda_bf16.h", nullptr, "cuda_bf16.h"},
};

}  // namespace

std::span<const StandardHeader> standard_headers() { return kHeaders; }

}  // namespace threadmap
