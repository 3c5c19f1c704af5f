// A ModelResult as bytes and back: how a learner's kernel, run in a child process
// (kernels/source/isolated_run.hpp), hands its result to the parent through a pipe.
#pragma once

#include <string>
#include <string_view>

#include "model_emulator.hpp"

namespace threadmap {

std::string serialize_result(const ModelResult& result);
// Empty when the bytes are not a whole result (the child stopped while writing).
std::optional<ModelResult> deserialize_result(std::string_view bytes);

}  // namespace threadmap
