// Compiles a learner's CUDA C++ on the CPU, in this process, in milliseconds: Clang 15 parses
// it after threadmap's prelude (prelude.cuh), every load and store through a pointer or of a
// __shared__ array is rewritten into a call to the kernel model (source_hooks.hpp), and ORC's
// JIT links the result against those calls and a short list of math functions — nothing else
// of the host, so a kernel calling system() or fopen() does not link. This is the only file
// that sees Clang's and LLVM's headers (they take seconds to compile).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/source/source_kernel.hpp"

namespace threadmap {

// `file_name` names the text in messages ("kernel.cu").
SourceCompile compile_source(const std::string& text, const std::string& file_name);

// The prelude's text (for the README and the editor's help).
const char* source_prelude();

}  // namespace threadmap
