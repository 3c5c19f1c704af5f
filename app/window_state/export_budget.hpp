// How large an export may be: 2× and 4× of a large window are hundreds of megapixels, which
// would take gigabytes to read back and encode. An export over the budget (or over the GL
// limit on a side) is made at the largest smaller scale that fits, and the status bar says so.
#pragma once

#include <cstdint>
#include <string>

namespace threadmap {

// 40 megapixels (160 MB of RGBA): 2× of a 3840×2160 window fits, 4× does not.
inline constexpr uint64_t kExportPixelBudget = 40'000'000;

struct ExportScale {
    int scale = 0;     // 4, 2 or 1; 0 when even 1× is over the budget
    std::string note;  // why the scale is below the one asked for, or why nothing is made
};

// width × height at 1× (pixels); wanted: 1, 2 or 4; max_side: the GL limit on a side.
ExportScale fit_export_scale(int width, int height, int wanted, int max_side);

}  // namespace threadmap
