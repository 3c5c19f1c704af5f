// `threadmap devices`: the CUDA devices (name, compute capability, SMs, memory), or why
// there are none.
#pragma once

namespace threadmap {

int run_devices_command();

}  // namespace threadmap
