// `threadmap map`: prints who touched which element, and the launch statistics.
#pragma once

#include "model_launch.hpp"

namespace CLI {
class App;
}

namespace threadmap {

struct MapCommandOptions {
    LaunchOptions launch;
    std::string format = "table";  // table | csv | json
    bool no_elements = false;      // stats only
};

void add_map_command(CLI::App& app, MapCommandOptions& options);
int run_map_command(const MapCommandOptions& options);  // the process exit code

}  // namespace threadmap
