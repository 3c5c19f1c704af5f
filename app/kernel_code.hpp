// The current kernel as a learner would write it, in numba Python and in CUDA C++, with the
// launch line for the current gridDim and blockDim. Guard lines are marked for highlighting.
#pragma once

#include <string>
#include <vector>

#include "launch_config.hpp"
#include "workload.hpp"

namespace threadmap {

struct CodeLine {
    std::string text;
    bool guard = false;   // the bounds check that keeps idle threads from writing
    bool launch = false;  // the line that launches with the current configuration
};

std::vector<CodeLine> numba_code(const Workload& w, const LaunchConfig& l);
std::vector<CodeLine> cuda_code(const Workload& w, const LaunchConfig& l);

}  // namespace threadmap
