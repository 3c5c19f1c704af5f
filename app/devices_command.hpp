// `threadmap devices`: the CUDA devices (name, compute capability, SMs, memory), or why
// there are none.
#pragma once

namespace CLI {
class App;
}

namespace threadmap {

void add_devices_command(CLI::App& app);
int run_devices_command();

}  // namespace threadmap
