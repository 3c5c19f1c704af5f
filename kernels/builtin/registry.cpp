// The registry: one line per built-in kernel.
#include "kernels/builtin/registry.hpp"

#include <cassert>

#include "kernels/builtin/copy_offset.hpp"
#include "kernels/builtin/histogram_atomic.hpp"
#include "kernels/builtin/histogram_racy.hpp"
#include "kernels/builtin/histogram_shared.hpp"
#include "kernels/builtin/increment.hpp"
#include "kernels/builtin/increment_stride.hpp"
#include "kernels/builtin/increment_unguarded.hpp"
#include "kernels/builtin/matmul.hpp"
#include "kernels/builtin/matmul_store_in_loop.hpp"
#include "kernels/builtin/matmul_tiled.hpp"
#include "kernels/builtin/matmul_xcol.hpp"
#include "kernels/builtin/reduce_interleaved.hpp"
#include "kernels/builtin/reduce_sequential.hpp"
#include "kernels/builtin/stencil_1d.hpp"
#include "kernels/builtin/transpose_naive.hpp"
#include "kernels/builtin/transpose_tiled.hpp"

namespace threadmap {

const std::vector<const KernelSpec*>& builtin_kernels() {
    // One line per kernel.
    // clang-format off
    static const std::vector<const KernelSpec*> all = {
        &builtin::increment(),
        &builtin::increment_stride(),
        &builtin::increment_unguarded(),
        &builtin::matmul(),
        &builtin::matmul_xcol(),
        &builtin::matmul_store_in_loop(),
        &builtin::matmul_tiled(),
        &builtin::matmul_tiled_nosync(),
        &builtin::reduce_interleaved(),
        &builtin::reduce_sequential(),
        &builtin::histogram_racy(),
        &builtin::histogram_atomic(),
        &builtin::histogram_shared(),
        &builtin::transpose_naive(),
        &builtin::transpose_tiled(),
        &builtin::transpose_tiled_padded(),
        &builtin::stencil_1d(),
        &builtin::copy_offset(),
    };
    // clang-format on
    return all;
}

const KernelSpec* find_builtin_kernel(const std::string& name) {
    for (const KernelSpec* spec : builtin_kernels())
        if (spec->name == name) return spec;
    return nullptr;
}

const std::vector<const FastKernel*>& all_kernels() {
    static const std::vector<const FastKernel*> fast = [] {
        std::vector<const FastKernel*> v;
        for (const KernelSpec* spec : builtin_kernels())
            if (spec->fast) v.push_back(spec->fast);
        return v;
    }();
    return fast;
}

const FastKernel* parse_kernel(std::string_view name) {
    for (const FastKernel* kernel : all_kernels())
        if (name == kernel->name) return kernel;
    return nullptr;
}

const KernelSpec& spec_of(const FastKernel& kernel) {
    const KernelSpec* spec = find_builtin_kernel(kernel.name);
    assert(spec && spec->fast == &kernel && "a fast body is carried by the spec of its name");
    return *spec;
}

Dim3 default_block(const FastKernel* kernel) {
    assert(kernel && "a fast body's block: the kernel model's launches take their spec's");
    return spec_of(*kernel).default_block;
}

}  // namespace threadmap
