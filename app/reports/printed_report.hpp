// What a learner's kernel printed with printf, for the CLI: `check` prints it after the
// findings, `map` with its table (on stderr, so the table stays a table) and in its JSON.
#pragma once

#include <cstdio>
#include <nlohmann/json_fwd.hpp>

#include "kernels/model/model_emulator.hpp"

namespace threadmap {

// {"text", "calls", "kept_calls"}.
nlohmann::json printed_json(const KernelPrint& printed);
// "hello called printf 12 times (in the order …)": how many calls, how many kept, and whose
// order the lines are in (the CLI's heading, the Editor tab's).
std::string printed_heading(const std::string& kernel, const KernelPrint& printed);
// A heading that says how many calls and in which order, then the text; nothing when the
// kernel did not call printf.
void write_printed(std::FILE* out, const std::string& kernel, const KernelPrint& printed);

}  // namespace threadmap
