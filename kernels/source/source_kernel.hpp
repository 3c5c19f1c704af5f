// A learner's kernel as threadmap compiled it (source_compiler.hpp): its parameters and
// __shared__ arrays, read from Clang's syntax tree, and the entry the kernel model calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/model/kernel_spec.hpp"

namespace threadmap {

struct SourceParam {
    std::string name;
    std::string type_text;  // as written: "const float *", "int"
    bool pointer = false;   // a pointer: bound to an array of `element`
    bool is_const = false;  // a pointer to const: the kernel only reads it
    ValueType element = ValueType::Float32;
    ValueType scalar = ValueType::Int32;  // a number's type, as the entry passes it
};

struct SourceSharedArray {
    std::string name;
    int line = 0;
    ValueType element = ValueType::Float32;
    std::vector<uint64_t> shape;  // [n] or [rows, cols] (a 3-D array's first two extents folded)
    bool dynamic = false;         // `extern __shared__ T name[]`: the launch's dynamic shared memory
    std::string function;         // the function that declares it
    size_t slot = 0;              // its addresses in the compiled code (source_hooks.hpp)
};

// A variable of the file that kernels use: a __constant__ one (read only, through the constant
// cache) or a __device__ one (global memory, read and written; any variable of the file that is
// not const, as only device code runs here). An array of the launch (a scalar: of one element)
// at its slot's address in the compiled code, holding its declaration's values or those bound
// to it (as the host's cudaMemcpyToSymbol would fill it).
struct SourceVariable {
    std::string name;
    int line = 0;
    bool constant = true;  // __constant__; false: __device__
    ValueType element = ValueType::Float32;
    uint64_t elements = 1;               // a scalar: 1
    size_t slot = 0;                     // its addresses in the compiled code (source_hooks.hpp)
    std::vector<unsigned char> initial;  // its declaration's bytes (zeros when it has none)
};

// Calls the kernel with its arguments: args[i] points at parameter i's value (as
// cudaLaunchKernel takes them); a pointer parameter's value is an address the model maps.
using SourceEntry = void (*)(void* const* args);

struct SourceKernel {
    std::string name;
    int line = 0;
    std::vector<SourceParam> params;
    std::vector<SourceSharedArray> shared;  // declared in the kernel or in a __device__ function
    std::vector<size_t> variables;          // the file's variables it uses (their indices)
    bool uses_barriers = false;
    bool uses_warp_ops = false;  // __shfl_sync, __syncwarp, …
    bool uses_atomics = false;
    SourceEntry entry = nullptr;
};

// One message of the compiler, as Clang printed it (`text` has the source line and caret).
struct SourceDiagnostic {
    std::string file;
    int line = 0, column = 0;
    bool error = true;  // else a warning
    std::string message;
    std::string text;
};

// One compiled source text: its kernels and variables as the syntax tree gave them. Where it was
// compiled (the kernel host, kernels/kernel_host) the kernels' entries point into the JIT's
// code; a process that asked the kernel host to compile it (threadmap's window and CLI) gets
// the same description with null entries, and `code` names the compile in the host.
struct CompiledSource {
    std::string file_name, text;        // as compiled
    std::vector<SourceKernel> kernels;  // in the order of the text
    std::vector<SourceVariable> variables;
    // Keeps the compiled code alive: the JIT's library (where it was compiled), or the kernel
    // host's handle of the compile (elsewhere). The last holder lets it go.
    std::shared_ptr<const void> code;
    uint64_t host_id = 0;  // the kernel host's number for this compile (0: compiled in this process)

    const SourceKernel* find(const std::string& name) const {
        for (const SourceKernel& k : kernels)
            if (k.name == name) return &k;
        return nullptr;
    }
};

// What a compile gives: the compiled text, or Clang's messages of why not.
struct SourceCompile {
    std::shared_ptr<const CompiledSource> source;  // empty when the text did not compile
    std::vector<SourceDiagnostic> diagnostics;     // errors and warnings, in order
    std::string text;                              // everything Clang printed
    double milliseconds = 0;                       // parse, instrument, optimise, link
};

}  // namespace threadmap
