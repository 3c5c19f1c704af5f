// What one cell of the map shows, written once for the CPU (colorize_layout) and the GPU
// (the interop colorizer): an element with its first toucher, an idle thread's ghost, or
// nothing. `decode` turns a global linear id into ThreadCoords (a table on the CPU, a
// division on the GPU).
#pragma once

#include "viz/color/colorizer.hpp"
#include "viz/layout/map_layout.hpp"

namespace threadmap {

template <class Decode>
TM_HD_INLINE CellSample sample_map_cell(const MapLayout& layout, const uint32_t* first_toucher, const uint32_t* touches,
                                        const Decode& decode, uint32_t x, uint32_t y) {
    CellSample s;
    const uint64_t e = layout.element_index(x, y);
    if (e != MapLayout::kNoElement) {
        s.kind = CellSample::Element;
        s.touches = touches[e];
        if (s.touches > 0) {
            const ThreadCoords t = decode(first_toucher[e]);
            s.block = t.block;
            s.thread = t.thread;
        }
        return s;
    }
    // Not an element: a ghost if some thread's cuda.grid position lands here (fast bodies only:
    // a model kernel's threads map to elements by its own code).
    const LaunchConfig& launch = layout.launch;
    const uint64_t ex = uint64_t(launch.grid.x) * launch.block.x, ey = uint64_t(launch.grid.y) * launch.block.y;
    uint64_t gx = 0, gy = 0;  // cuda.grid position of the cell
    if (!layout.grid_position(x, y, gx, gy) || gx >= ex || gy >= ey) return s;
    s.kind = CellSample::Ghost;
    s.block = {uint32_t(gx / launch.block.x), uint32_t(gy / launch.block.y), 0};
    s.thread = {uint32_t(gx % launch.block.x), uint32_t(gy % launch.block.y), 0};
    return s;
}

}  // namespace threadmap
