// `threadmap map`: prints who touched which element, and the launch statistics.
#pragma once

#include "app/launch/model_launch.hpp"

namespace threadmap {

struct MapCommandOptions {
    LaunchOptions launch;
    std::string format = "table";  // table | csv | json
    bool no_elements = false;      // stats only
};

int run_map_command(const MapCommandOptions& options);  // the process exit code

}  // namespace threadmap
