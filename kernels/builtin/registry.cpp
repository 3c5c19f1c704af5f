// The registry: one line per built-in kernel.
#include "registry.hpp"

#include "copy_offset.hpp"
#include "histogram_atomic.hpp"
#include "histogram_racy.hpp"
#include "histogram_shared.hpp"
#include "increment.hpp"
#include "increment_stride.hpp"
#include "increment_unguarded.hpp"
#include "matmul.hpp"
#include "matmul_store_in_loop.hpp"
#include "matmul_tiled.hpp"
#include "matmul_xcol.hpp"
#include "reduce_interleaved.hpp"
#include "reduce_sequential.hpp"
#include "stencil_1d.hpp"
#include "transpose_naive.hpp"
#include "transpose_tiled.hpp"

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
    for (const KernelSpec* k : builtin_kernels())
        if (k->name == name) return k;
    return nullptr;
}

}  // namespace threadmap
