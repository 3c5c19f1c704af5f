// A ModelResult as bytes and back: how a learner's kernel, run in a child process
// (kernels/kernel_host/isolated_run.hpp, kernels/kernel_host), hands its result to the parent through
// a pipe. The child runs code a learner (or anyone who wrote a lesson or a session file) wrote,
// which can write any bytes there: the parent reads at most largest_result_bytes() and uses a
// result only once check_result_fits() found every field the launch's own.
#pragma once

#include <string>
#include <string_view>

#include "kernels/model/model_emulator.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

std::string serialize_result(const ModelResult& result);
// Empty when the bytes are not a whole result (the child stopped while writing).
std::optional<ModelResult> deserialize_result(std::string_view bytes);

// The most bytes an honest child's result of this launch takes (serialize_result's), with room
// to spare: the parent reads no more.
uint64_t largest_result_bytes(const ModelLaunch& launch);
// Why `result` cannot be this launch's (the field and what is wrong with it), or nothing when
// every array, record, finding, thread, index and memory-view entry fits the launch.
Outcome<void> check_result_fits(const ModelResult& result, const ModelLaunch& launch);

}  // namespace threadmap
