// A learner's kernel with its parameters bound (`--bind a=float[500]:index --bind n=500`, or
// the editor's fields): a KernelSpec the kernel model runs like a built-in one. Each pointer
// parameter is an array (its shape and its starting values), each other parameter a value.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/model/kernel_spec.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/source/source_kernel.hpp"
#include "kernels/source/source_hooks.hpp"

namespace threadmap {

// What an array holds before the launch: 0, 1, its own index, seeded random values (floats
// in [0, 1), integers in [0, 100), bools 0 or 1), or the values written out, one per element.
enum class SourceFill { Zeros, Ones, Index, Random, Values };

struct SourceBinding {
    std::string name;
    bool array = false;
    std::optional<ValueType> type;  // as written ("float[500]"): must match the signature
    std::vector<uint64_t> shape;    // [n] or [rows, cols]
    SourceFill fill = SourceFill::Zeros;
    uint64_t seed = 1;
    std::vector<std::string> values;  // SourceFill::Values: each element's, as typed
    std::string value;                // a number, as typed
};

// NAME=[TYPE][N][:FILL] or NAME=[TYPE][ROWS][COLS][:FILL] for a pointer, NAME=VALUE for a number;
// FILL is zeros (default), ones, index, random, random:SEED, or the values, V,V,… (one per
// element).
Outcome<SourceBinding> parse_binding(const std::string& text);
// The binding as parse_binding reads it back ("a=float[500]:index").
std::string binding_text(const SourceBinding& b);

class BoundKernel {
  public:
    KernelSpec spec;  // no parameters of its own: the arrays' shapes and the values are fixed
    std::shared_ptr<const CompiledSource> source;
    const SourceKernel* kernel = nullptr;
    std::vector<SourceBinding> bindings;  // one per parameter, in the signature's order
    source_hooks::AddressMap addresses;
    std::vector<size_t> pointer_slots;  // per parameter: a pointer's address slot, or AddressMap::kNone
    // Each parameter's value (a pointer's: its slot's address, once the code is attached), and
    // &values[i] for each, as the entry takes them (bind_kernel in isolated_run.hpp sets them).
    std::vector<uint64_t> values;
    std::vector<void*> args;
};

// Binds every parameter of `kernel` (of `source`); an error names what is missing or wrong.
// The spec has no body yet: where the code is (the kernel host, or a test of the compiler),
// bind_kernel (isolated_run.hpp) gives it one; elsewhere the kernel host runs it
// (kernels/kernel_host). `dynamic_shared_bytes`: the launch's dynamic shared memory per block
// (<<<grid, block, bytes>>>): an `extern __shared__ float s[]` holds bytes / 4 elements.
Outcome<std::shared_ptr<BoundKernel>> bind_parameters(std::shared_ptr<const CompiledSource> source,
                                                      const SourceKernel& kernel,
                                                      const std::vector<SourceBinding>& bindings,
                                                      uint64_t dynamic_shared_bytes);

}  // namespace threadmap
