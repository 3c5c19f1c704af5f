// The open kernel model: what a kernel is to threadmap. A KernelSpec names the kernel's
// scalar parameters (the problem size), its arrays (global and __shared__, with their
// shapes as functions of the parameters), its body (run per thread through ModelThread,
// which records every access), the inputs it starts from, a CPU reference its outputs must
// equal, and its CUDA C++ text, whose line numbers the body's accesses name. The built-in
// kernels are in kernels/builtin/, one file each, listed in registry.cpp; a learner's kernel
// (kernels/source) gets a spec when its parameters are bound.
#pragma once

#include <cstdint>
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/core/workload.hpp"
#include "kernels/model/value_type.hpp"

namespace threadmap {

class ModelThread;
struct ModelLaunch;
struct ModelResult;

// Where an array lives: global memory, one copy per block of __shared__ memory, or a learner's
// __constant__ array (one copy, read only, read through the constant cache).
enum class MemorySpace { Global, Shared, Constant };
inline const char* memory_space_name(MemorySpace s) {
    return s == MemorySpace::Shared ? "shared" : s == MemorySpace::Constant ? "constant" : "global";
}
enum class ArrayRole { Input, Output, InOut, Scratch };

struct ParamSpec {
    std::string name;  // also the CLI flag: --NAME
    std::string help;
    uint64_t default_value = 1;
    uint64_t min = 1;
    uint64_t max = uint64_t(1) << 30;  // the emulator's cap
    // When not given: the value of this parameter instead of default_value (matmul's A has
    // as many rows as C unless a lesson says otherwise).
    size_t default_from = SIZE_MAX;
    // Part of the problem's size (n, rows, cols, inner), which the sweep over sizes grows; false:
    // a setting it keeps (a histogram's bins, an offset).
    bool problem_size = true;
    // With default_from: it follows that parameter whenever a launch's parameters are given
    // (matmul's A and B are then exactly C's operands; a lesson's larger ones hold only for its
    // own shape). Otherwise it follows only where no lesson gives it (inner after cols).
    bool follows_given_shape = false;
};

// The problem: one value per ParamSpec, in the spec's order.
using Params = std::vector<uint64_t>;

struct ArraySpec {
    std::string name;
    MemorySpace space = MemorySpace::Global;
    ValueType type = ValueType::Float32;
    ArrayRole role = ArrayRole::Input;
    // Global arrays: the shape from the parameters ([n] or [rows, cols]; one partial sum per
    // block takes the grid). Shared arrays: the shape per block.
    std::function<std::vector<uint64_t>(const Params& p, const LaunchConfig& launch)> shape;
    // Shared arrays: `extern __shared__`, sized at launch (the third value of <<<…>>>), which
    // CUDA checks when the kernel is launched, not when it is compiled.
    bool dynamic = false;
    // A dynamic array: the bytes the launch gives, when not its elements × 4 (a learner may
    // give 1,022 bytes: 255 floats). CUDA checks the bytes.
    uint64_t dynamic_bytes = 0;
};

struct KernelSpec {
    std::string name;     // "histogram-atomic"
    std::string summary;  // one line for `threadmap kernels`
    std::vector<ParamSpec> params;
    std::vector<ArraySpec> arrays;
    bool uses_barriers = false;  // __syncthreads(): the block's threads run as fibers
    bool uses_warp_ops = false;  // __shfl_sync, __syncwarp, …: as fibers too
    bool runs_as_fibers() const { return uses_barriers || uses_warp_ops; }
    // The dynamic shared memory a learner's launch gives (the third value of <<<…>>>), in bytes,
    // whether or not an extern __shared__ array takes it: CUDA checks it at launch, and an SM
    // sets it aside for the block all the same (shared_bytes_per_block).
    uint64_t launch_dynamic_shared_bytes = 0;
    bool uses_atomics = false;
    // The body never uses the old value an atomic returns (a histogram's counts): blocks run
    // apart that add into the same elements with integer atomicAdd join by adding what each
    // added, as one thread running them in turn would have left (ModelEmulator::absorb).
    bool atomic_results_unused = false;
    // The body keeps process-wide state (a learner's compiled kernel: kernels/source), so the
    // model runs its blocks on one thread.
    bool one_thread_at_a_time = false;
    // The body, run once per thread of the launch.
    std::function<void(ModelThread& t)> body;
    // The grid a learner would write for this block to cover the problem.
    std::function<Dim3(const Params& p, const Dim3& block)> covering_grid;
    // Any grid covers the problem (a grid-stride loop: each thread steps by the grid's size), so
    // covering_grid is the grid of one element per thread, not the only one that covers.
    bool any_grid_covers = false;
    Dim3 default_block;
    // Input values (deterministic, and safe to call from several threads at once: each worker
    // of a spread launch fills its own copy): fills array `index` (an Input or InOut array).
    std::function<void(const Params& p, size_t index, std::vector<uint32_t>& bits)> fill_input;
    // The outputs a correct kernel leaves for this launch, from the inputs (indexed like
    // `arrays`; entries other than Output/InOut arrays are left empty).
    using Bits = std::vector<std::vector<uint32_t>>;
    // Empty for a learner's kernel (kernels/source): only its launches can be compared.
    std::function<Bits(const Params& p, const LaunchConfig& launch, const Bits& inputs)> reference;
    // Floating-point operations one launch does (a multiply-add counts 2), for the timing model's
    // compute bound; empty: none worth counting (copies, integer counts), the time rests on bytes.
    std::function<double(const Params& p)> flops;
    // The kernel as CUDA C++; the body's accesses name lines of this text (1-based).
    std::string cuda_source;
    // How run_model runs it when not in this process: a learner's kernel runs in a locked-down
    // child with a time limit (kernels/kernel_host/isolated_run.hpp), calling run_model_here there.
    std::function<Outcome<ModelResult>(const ModelLaunch& launch, const std::atomic<bool>* cancel)> run_apart;
    // Its compiled fast body (kernels/builtin/kernel_bodies.hpp): the writers-only emulator, a
    // GPU twin, the timing sweep and the map's idle threads run it. nullptr: the kernel model only.
    const FastKernel* fast = nullptr;

    Params default_params() const;                       // each default_value, or the one it follows
    size_t param_index(const std::string& param) const;  // params.size() when absent
    std::vector<std::string> param_names() const;        // in order: two kernels with the same take one Params
    size_t array_index(const std::string& array) const;  // arrays.size() when absent
    // The first output (or in-out) global array: what its map shows by default.
    size_t mapped_array() const;
};

}  // namespace threadmap
