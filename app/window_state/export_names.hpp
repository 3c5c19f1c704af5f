// File names for exports: what the figure shows, and when it was made, e.g.
// threadmap-seed-matmul-grid16x16x1-block32x32x1-block-20261130-101500.png
#pragma once

#include <ctime>
#include <string>

#include "app/launch/launch_options.hpp"

namespace threadmap {

// Local time for file names, sortable: 20261130-101500 (exports, saved timings, a settings
// file kept aside).
std::string file_stamp(std::time_t when);

std::string export_file_name(const ResolvedLaunch& launch, const std::string& color_mode, bool whole_window,
                             std::time_t when);

}  // namespace threadmap
