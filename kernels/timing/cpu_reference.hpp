// The kernel's computation as a CPU program would do it, timed with a steady clock: a loop
// the compiler vectorises for increment, OpenBLAS's sgemm or dgemm for matmul (what numpy calls
// for float32 or float64 arrays).
// This is the CPU bar next to the GPU's in the timing figures.
#pragma once

#include <string>
#include <vector>

#include "kernels/timing/timing_model.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

struct CpuReferenceTiming {
    std::string implementation;   // "loop (g++ -O2, 1 thread)", "OpenBLAS sgemm (2 threads)"
    std::vector<double> seconds;  // one per repeat
    uint64_t bytes = 0;           // read and written
    double flops = 0;             // matmul: 2·rows·cols·inner; increment: n
};

// element: the program's (numpy's default float64 calls dgemm; float32, sgemm).
CpuReferenceTiming time_cpu_reference(const Workload& workload, int repeats,
                                      ElementType element = ElementType::Float32);

// The reference result (for tests): what C = A·B or a + 1 is, from the same inputs.
std::vector<float> cpu_reference_result(const Workload& workload);

}  // namespace threadmap
