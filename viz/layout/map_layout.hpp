// MapLayout: how a launch's map is laid out as a grid of cells on screen. A 1D array wraps
// into rows of whole blocks, or, when a block is wider than a row should be, each block over
// several rows of whole warps (of 1 to 16 threads, halving a warp, for launches of a few dozen
// threads): a 1D map never collapses into a line. A matrix is drawn as C (row i down, column j
// across). Idle
// threads that ran past the end of the data are "ghost" cells after it, so they can be seen.
#pragma once

#include <optional>
#include <string>

#include "viz/color/colorizer.hpp"
#include "kernels/core/outcome.hpp"
#include "kernels/core/thread_map.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

inline constexpr uint64_t kWarpCells = 32;  // a warp's threads: the unit a wrapped block's rows hold

// How wide a 1D map's rows are: `blocks` whole blocks, or (threads > 0) `threads` threads of one
// block — whole warps, or 1, 2, 4, 8 or 16 — each block then wrapped over several rows.
struct RowWidth {
    uint32_t blocks = 1;
    uint32_t threads = 0;
    bool operator==(const RowWidth& o) const { return blocks == o.blocks && threads == o.threads; }  // nvcc: C++17
};
// A wrapped row's width rounded to what rows hold: a power of two below a warp, else whole warps.
uint64_t wrapped_row_threads(uint64_t threads);

struct MapLayout {
    Workload workload;
    LaunchConfig launch;
    // Where idle threads are drawn (the workload's, copied: the GPU's colorizer cannot read it
    // through workload.kernel).
    ThreadPlacement placement = ThreadPlacement::ByKernel;
    uint32_t width = 0;    // cells across
    uint32_t height = 0;   // cells down
    uint32_t block_w = 1;  // block outlines every block_w cells across …
    uint32_t block_h = 1;  // … and every block_h cells down (0: none)
    // A kernel-model map: the block outlines follow the kernel's own indexing — drawn where
    // the block of the thread that touched a cell first changes (a transpose's output has
    // blocks blockDim.y wide; a histogram's bins none) — instead of block_w × block_h, which
    // are 0. colorize_layout marks those edges in each cell's alpha (kEdgeLeft, kEdgeTop).
    bool outline_by_toucher = false;
    uint32_t blocks_per_row = 1;    // 1D only: the row width in blocks (may be raised to fit)
    uint32_t threads_per_row = 0;   // 1D only: > 0 when a block wraps over rows of this many threads
    uint64_t ghosts_not_drawn = 0;  // idle threads past the drawn area (huge oversized grids)
    // A kernel-model map: cells after the array (1D) or rows under it (2D), continuing its
    // row-major order, where out-of-bounds accesses past its end are drawn (ThreadMap's past_*).
    uint64_t past_cells = 0;
    uint64_t past_not_drawn = 0;  // of ThreadMap's past cells, those beyond the drawn area

    static constexpr uint64_t kNoElement = ~uint64_t(0);

    TM_HD bool is_matrix() const { return is_2d(workload); }  // drawn as rows × cols
    // The element a cell shows, or kNoElement (TM_HD: the CUDA colorizer calls it too).
    TM_HD uint64_t element_index(uint32_t x, uint32_t y) const {
        if (is_matrix()) return y < workload.rows && x < workload.cols ? uint64_t(y) * workload.cols + x : kNoElement;
        const uint64_t p = uint64_t(y) * width + x;
        return p < workload.n ? p : kNoElement;
    }
    // How many cells of row y show elements: cells 0 to k − 1, elements element_index(0, y)
    // onwards, one after another (a row of C, or of the wrapped 1D array).
    uint32_t elements_in_row(uint32_t y) const {
        if (is_matrix()) return y < workload.rows ? uint32_t(std::min<uint64_t>(workload.cols, width)) : 0;
        const uint64_t p = uint64_t(y) * width;
        return p < workload.n ? uint32_t(std::min<uint64_t>(workload.n - p, width)) : 0;
    }
    // The offset past the array's end of a past cell (element size() + k), or kNoElement.
    uint64_t past_index(uint32_t x, uint32_t y) const {
        const uint64_t p = is_matrix() ? uint64_t(y) * workload.cols + x : uint64_t(y) * width + x;
        const uint64_t n = element_count(workload);
        return (!is_matrix() || x < workload.cols) && p >= n && p - n < past_cells ? p - n : kNoElement;
    }
    // The cuda.grid position (gx, gy) of the thread the placement lands on cell (x, y), where an
    // idle thread is drawn as a ghost; false for ByKernel (a model kernel's threads land by its
    // own code). One cell to the right is one more in gx, or in gy for XRow.
    TM_HD bool grid_position(uint32_t x, uint32_t y, uint64_t& gx, uint64_t& gy) const {
        switch (placement) {
            case ThreadPlacement::ByKernel:
                return false;
            case ThreadPlacement::XRow:  // the tutorial's matmul: x of cuda.grid runs down the rows
                gx = y, gy = x;
                return true;
            case ThreadPlacement::XColumn:
                gx = x, gy = y;
                return true;
            case ThreadPlacement::Linear:
                gx = uint64_t(y) * width + x, gy = 0;
                return true;
        }
        return false;
    }
    std::optional<uint64_t> element_at(uint32_t x, uint32_t y) const {
        const uint64_t e = element_index(x, y);
        return e == kNoElement ? std::nullopt : std::optional<uint64_t>(e);
    }
    // The cell of an element (inverse of element_at).
    void cell_of(uint64_t element, uint32_t& x, uint32_t& y) const;
};

// Drawing caps: at most max_side cells on a side and max_cells in all (the GL limits), and
// never more than 2^26 cells (256 MB of colours).
inline constexpr uint64_t kMaxDrawnCells = uint64_t(1) << 26;

// rows: a 1D map's row width (whole blocks are raised when the height would pass max_side;
// a wrapped block's rows are widened the same way). Ghost cells are trimmed to fit; when the data alone does not fit,
// the problem comes back as text. past: a kernel-model map's cells past the array's end to draw (trimmed to fit as
// ghosts are).
using LayoutResult = Outcome<MapLayout>;
LayoutResult make_layout(const Workload& workload, const LaunchConfig& launch, RowWidth rows, uint32_t max_side,
                         uint64_t max_cells = kMaxDrawnCells, uint64_t past = 0);

// 1D arrays: the row width whose layout is closest in shape to a view of `aspect` (width /
// height), so the map fills the view instead of a strip down its middle: whole blocks, or a
// block's warps when even one block is wider than that.
RowWidth row_width_for_aspect(const Workload& workload, const LaunchConfig& launch, double aspect);

// What the cell at (x, y) shows: an element with its first toucher, an idle thread, or nothing.
CellSample sample_cell(const MapLayout& layout, const ThreadMap& map, uint32_t x, uint32_t y);

// sample_cell for many cells of one map (the view's visible cells, each frame): its decoder's
// tables are made once, not per cell (a grid of 16,000 blocks cost 48 ms a frame so).
class CellSampler {
  public:
    CellSampler(const MapLayout& layout, const ThreadMap& map) : layout_(layout), map_(map), decoder_(map.launch) {}
    CellSample operator()(uint32_t x, uint32_t y) const;

  private:
    const MapLayout& layout_;
    const ThreadMap& map_;
    ToucherDecoder decoder_;
};

// Colours every cell into out (width·height RGBA8, row 0 first), on all cores.
// cost: per element, the memory modes' figure (CellSample::cost); null for the other modes.
void colorize_layout(const MapLayout& layout, const ThreadMap& map, const ColorContext& ctx, Rgba8* out,
                     const uint8_t* cost = nullptr);

}  // namespace threadmap
