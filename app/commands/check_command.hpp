// `threadmap check`: runs a launch in the kernel model and prints only its findings (out of
// bounds, races, hazards, uninitialised shared reads, divergent barriers), as text or JSON.
// Exit status: 0 no findings, 3 findings, 2 bad usage or an invalid launch — so a script can
// ask "does this launch race?".
#pragma once

#include "app/launch/model_launch.hpp"

namespace threadmap {

struct CheckCommandOptions {
    LaunchOptions launch;
    std::string format = "text";  // text | json
    // "Where my kernel breaks": the launch, then awkward launches compared with it
    // (launch_sweep.hpp); exit 3 when one differs in values or findings, or fails.
    bool sweep_launches = false;
};

int run_check_command(const CheckCommandOptions& options);

}  // namespace threadmap
