// Map layout and colouring; see map_layout.hpp.
#include "viz/layout/map_layout.hpp"

#include "viz/layout/cell_sample.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace threadmap {

namespace {

// Launched extent along the array (1D) or along C's rows and columns.
struct Extent {
    uint64_t rows, cols;
};

// past: a kernel-model map's cells past the end (rows under a 2D array, filled row-major).
Extent launched_extent(const Workload& workload, const LaunchConfig& launch, uint64_t past = 0) {
    const uint64_t ex = uint64_t(launch.grid.x) * launch.block.x, ey = uint64_t(launch.grid.y) * launch.block.y;
    switch (placement_of(workload)) {
        case ThreadPlacement::XRow:
            return {ex, ey};  // x → row i
        case ThreadPlacement::XColumn:
            return {ey, ex};             // x → column j
        case ThreadPlacement::ByKernel:  // the array and its past cells: no idle-thread cells
            return is_2d(workload) ? Extent{workload.rows + (past + workload.cols - 1) / workload.cols, workload.cols}
                                   : Extent{1, workload.n + past};
        case ThreadPlacement::Linear:
            break;
    }
    return {1, ex};
}

}  // namespace

void MapLayout::cell_of(uint64_t e, uint32_t& x, uint32_t& y) const {
    if (is_matrix()) {
        y = uint32_t(e / workload.cols);
        x = uint32_t(e % workload.cols);
    } else {
        y = uint32_t(e / width);
        x = uint32_t(e % width);
    }
}

namespace {

// A matrix (or a model kernel's 2D array) and the launch's ghost margin around it.
std::optional<std::string> lay_out_2d(MapLayout& layout, const Extent& launched, uint32_t max_side, uint64_t max_cells,
                                      uint64_t past) {
    const Workload& workload = layout.workload;
    const LaunchConfig& launch = layout.launch;
    if (workload.rows > max_side || workload.cols > max_side) {
        return (is_model(workload) ? "the array is " : "C is ") + std::to_string(workload.rows) + "x" +
               std::to_string(workload.cols) + "; the map can draw at most " + std::to_string(max_side) +
               " cells on a side";
    }
    uint64_t rows = std::max(workload.rows, launched.rows), cols = std::max(workload.cols, launched.cols);
    rows = std::min<uint64_t>(rows, max_side);
    cols = std::min<uint64_t>(cols, max_side);
    // Trim the ghost margin, never C itself: the longer side while it has a margin, else the
    // other, which then has one (C alone fits: make_layout checked). Trimming only the longer
    // side spun for ever on a C wider than tall under a taller launch: no column margin to give.
    while (rows * cols > max_cells) {
        if (rows > workload.rows && (rows >= cols || cols == workload.cols))
            rows = std::max<uint64_t>(workload.rows, rows / 2);
        else
            cols = std::max<uint64_t>(workload.cols, cols / 2);
    }
    layout.width = uint32_t(cols);
    layout.height = uint32_t(rows);
    // Display x is the column j: set by blockIdx.y for matmul, blockIdx.x for matmul-xcol (and
    // for the model's 2D kernels, which index columns with x as CUDA samples do).
    const bool x_rows = layout.placement == ThreadPlacement::XRow;
    layout.block_w = x_rows ? launch.block.y : launch.block.x;
    layout.block_h = x_rows ? launch.block.x : launch.block.y;
    const uint64_t launched_cells =
        std::min(launched.rows, uint64_t(layout.height)) * std::min(launched.cols, uint64_t(layout.width));
    const uint64_t launched_all = launched.rows * launched.cols;
    layout.ghosts_not_drawn = launched_all - launched_cells;
    layout.past_cells = std::min(past, (uint64_t(layout.height) - workload.rows) * workload.cols);
    return std::nullopt;
}

// A 1D array in rows of whole blocks, or a block wrapped over rows of warps.
std::optional<std::string> lay_out_1d(MapLayout& layout, const Extent& launched, RowWidth row_width, uint32_t max_side,
                                      uint64_t max_cells, uint64_t past) {
    const Workload& workload = layout.workload;
    const LaunchConfig& launch = layout.launch;
    const uint64_t extent = std::max(workload.n, launched.cols);
    const uint64_t drawn = std::min(extent, max_cells);
    const uint64_t bdx = launch.block.x;
    if (row_width.threads > 0 && row_width.threads < bdx) {
        // A block over several rows, widened until the height fits.
        const uint64_t width = std::min(
            wrapped_row_threads(std::max<uint64_t>(row_width.threads, (drawn + max_side - 1) / max_side)), bdx);
        layout.threads_per_row = uint32_t(width);
        layout.blocks_per_row = 0;
        layout.width = uint32_t(width);
        layout.height = uint32_t((drawn + width - 1) / width);
        layout.ghosts_not_drawn = extent - drawn;
        layout.past_cells = std::min(past, drawn - std::min(drawn, workload.n));
        // Blocks start mid-row when the row does not divide them: outlined where the
        // toucher's block changes.
        layout.outline_by_toucher = true;
        layout.block_w = layout.block_h = 0;
    } else {
        uint64_t k = std::max<uint64_t>(1, row_width.blocks);
        k = std::max(k, (drawn + bdx * max_side - 1) / (bdx * max_side));  // fit the height
        if (k * bdx > max_side) {
            return std::to_string(drawn) + " cells do not fit a " + std::to_string(max_side) + "x" +
                   std::to_string(max_side) + " texture in whole blocks of " + std::to_string(bdx);
        }
        layout.blocks_per_row = uint32_t(k);
        // A model kernel's short array (16 histogram bins) is one row of its own length.
        layout.width = uint32_t(is_model(workload) ? std::min<uint64_t>(k * bdx, drawn) : k * bdx);
        layout.height = uint32_t((drawn + layout.width - 1) / layout.width);
        layout.block_w = launch.block.x;
        layout.block_h = 1;
        layout.ghosts_not_drawn = extent - drawn;
        layout.past_cells = std::min(past, drawn - std::min(drawn, workload.n));
    }
    return std::nullopt;
}

}  // namespace

LayoutResult make_layout(const Workload& workload, const LaunchConfig& launch, RowWidth row_width, uint32_t max_side,
                         uint64_t max_cells, uint64_t past) {
    LayoutResult r;
    max_cells = std::min(max_cells, kMaxDrawnCells);
    if (element_count(workload) > max_cells) {
        r.error = std::to_string(element_count(workload)) + " elements; the map can draw at most " +
                  std::to_string(max_cells);
        return r;
    }
    MapLayout layout;
    layout.workload = workload;
    layout.launch = launch;
    layout.placement = placement_of(workload);
    if (!is_model(workload)) past = 0;
    const Extent launched = launched_extent(workload, launch, past);
    const auto problem = is_2d(workload) ? lay_out_2d(layout, launched, max_side, max_cells, past)
                                         : lay_out_1d(layout, launched, row_width, max_side, max_cells, past);
    if (problem) {
        r.error = *problem;
        return r;
    }
    if (is_model(workload)) {  // outlines from who touched each cell
        layout.past_not_drawn = past - layout.past_cells;
        layout.ghosts_not_drawn = 0;
        layout.outline_by_toucher = true;
        layout.block_w = layout.block_h = 0;
    }
    r.value = layout;
    return r;
}

uint64_t wrapped_row_threads(uint64_t threads) {
    if (threads >= kWarpCells) return (threads + kWarpCells / 2) / kWarpCells * kWarpCells;
    uint64_t p = 1;
    while (p * 2 <= threads) p *= 2;
    return p;
}

RowWidth row_width_for_aspect(const Workload& workload, const LaunchConfig& launch, double aspect) {
    if (is_2d(workload) || !(aspect > 0)) return {};
    const uint64_t cells = std::min(std::max(workload.n, launched_extent(workload, launch).cols), kMaxDrawnCells);
    const uint64_t bdx = launch.block.x, max_k = std::max<uint64_t>(1, (cells + bdx - 1) / bdx);
    const auto error_of = [&](double width) {
        return std::abs(std::log(width / std::ceil(double(cells) / width) / aspect));
    };
    // width = k·bdx, height = ⌈cells / width⌉; width/height ≈ aspect near width = √(cells·aspect).
    const double ideal = std::sqrt(double(cells) * aspect);
    if (ideal < double(bdx) && bdx > 1) {
        // One block is wider than a row should be: rows of whole warps (or of a power of two
        // below a warp), the block wrapped, if that comes closer to the view's shape. (A model
        // kernel's array wraps the same way: a reduction's 256 partial sums, one per block, are
        // 16 rows of 16, not a line.)
        uint64_t best = bdx;
        for (uint64_t t : {wrapped_row_threads(uint64_t(std::max(ideal / 1.5, 1.0))),
                           wrapped_row_threads(uint64_t(ideal)), wrapped_row_threads(uint64_t(ideal * 1.5))}) {
            t = std::min(t, bdx);
            if (error_of(double(t)) < error_of(double(best))) best = t;
        }
        if (best < bdx) return {1, uint32_t(best)};
    }
    const double guess = ideal / double(bdx);
    uint64_t best = 1;
    double best_error = 1e300;
    for (double c : {std::floor(guess), std::ceil(guess)}) {
        const uint64_t k = std::clamp<uint64_t>(uint64_t(std::max(c, 1.0)), 1, max_k);
        const double width = double(k * bdx), height = std::ceil(double(cells) / width);
        const double error = std::abs(std::log(width / height / aspect));
        if (error < best_error) best = k, best_error = error;
    }
    return {uint32_t(std::min<uint64_t>(best, 4096)), 0};
}

namespace {

// The per-cell work of sample_cell, forced inline into colorize_layout's loop.
TM_HD_INLINE CellSample sample(const MapLayout& layout, const ThreadMap& map, const ToucherDecoder& decoder, uint32_t x,
                               uint32_t y) {
    const auto decode = [&decoder](uint32_t id) {
        const Toucher t = decoder.decode(id);
        return ThreadCoords{t.block, t.thread};
    };
    CellSample s = sample_map_cell(layout, map.first_toucher.data(), map.touches.data(), decode, x, y);
    if (s.kind != CellSample::Empty || layout.past_cells == 0) return s;
    const uint64_t k = layout.past_index(x, y);
    if (k == MapLayout::kNoElement || k >= map.past_touches.size() || map.past_touches[k] == 0) return s;
    s.kind = CellSample::Past;
    s.touches = map.past_touches[k];
    const Toucher t = decoder.decode(map.past_first_toucher[k]);
    s.block = t.block;
    s.thread = t.thread;
    return s;
}

}  // namespace

CellSample sample_cell(const MapLayout& layout, const ThreadMap& map, uint32_t x, uint32_t y) {
    return sample(layout, map, ToucherDecoder(map.launch, false), x, y);
}

CellSample CellSampler::operator()(uint32_t x, uint32_t y) const { return sample(layout_, map_, decoder_, x, y); }

namespace {

// outline_by_toucher: which block a cell belongs to (its first toucher's, an idle thread's), or
// none; an edge is drawn where it differs from the cell's left or upper neighbour's.
constexpr uint64_t kNoBlock = ~uint64_t(0), kUntouched = kNoBlock - 1;

struct CellColor {
    Rgba8 color;
    uint64_t block;  // kNoBlock, kUntouched or the linear index of the cell's thread's block
};

// One worker's colouring of rows. A written element's (or an idle thread's) colour is kept by
// its key (element_color_key) in a small direct-mapped table (24 KB), so a map of millions of
// cells computes each block's (or thread index's, or warp's) colour about once instead of once
// per cell. colour-bench, two cores, 19f8e6b colouring every cell on its own against this:
// a 4096² map in Block mode 62-102 ms -> 17-25 ms; 2^26 ghost cells 199-326 -> 58-93 ms.
class RowColorer {
  public:
    RowColorer(const MapLayout& layout, const ThreadMap& map, const ToucherDecoder& decoder, const ColorContext& ctx,
               const uint8_t* cost)
        : layout_(layout), map_(map), decoder_(decoder), ctx_(ctx), cost_(cost) {
        std::fill(std::begin(keys_), std::end(keys_), kNoColorKey);
        CellSample untouched;
        untouched.kind = CellSample::Element;
        untouched_ = colorize(untouched, ctx);  // in every mode: nobody wrote it
    }

    // Row y's colours into out; with `blocks`, each cell's block (CellColor::block) there.
    void operator()(uint32_t y, Rgba8* out, uint64_t* blocks) {
        const uint32_t elements = layout_.elements_in_row(y);
        const uint64_t e0 = elements > 0 ? layout_.element_index(0, y) : 0;
        const uint32_t* touches = map_.touches.data() + e0;
        const uint32_t* first = map_.first_toucher.data() + e0;
        const uint32_t tpb = decoder_.threads_per_block();
        const ColorContext ctx = ctx_;  // a copy: stores of colours may alias the original
        for (uint32_t x = 0; x < elements; ++x) {
            CellColor cell{untouched_, kUntouched};
            if (touches[x] > 0) {
                const uint32_t b = decoder_.block_index(first[x]);
                const uint64_t key = element_color_key(ctx, b, first[x] - b * tpb, touches[x]);
                cell = {kept(key, false, [&] { return element_color(ctx, touches[x], first[x], e0 + x); }), b};
            }
            out[x] = cell.color;
            if (blocks) blocks[x] = cell.block;
        }
        if (uint64_t gx = 0, gy = 0; layout_.grid_position(elements, y, gx, gy))
            return ghost_cells(ctx, gx, gy, elements, out, blocks);
        for (uint32_t x = elements; x < layout_.width; ++x) {  // cells past a model array's end, nothing
            const CellColor cell = computed(x, y);
            out[x] = cell.color;
            if (blocks) blocks[x] = cell.block;
        }
    }

  private:
    // Every thread index of a block, as an element's and a ghost's: ThreadX never evicts.
    static constexpr size_t kSlots = 2048;

    // The colour kept under `key` for an element or a ghost (their colours differ in alpha), or
    // made by `make` and kept; kNoColorKey: made each time.
    template <class Make>
    Rgba8 kept(uint64_t key, bool ghost, const Make& make) {
        if (key == kNoColorKey) return make();
        key = key * 2 + ghost;
        const size_t slot = key % kSlots;
        if (keys_[slot] != key) {
            keys_[slot] = key;
            colors_[slot] = make();
        }
        return colors_[slot];
    }

    // Cells x0 onwards of a row, past the elements, (gx, gy) the cuda.grid position cell x0
    // shows (MapLayout::grid_position, sample_map_cell's rule): the idle threads landing there,
    // stepped along the row instead of divided out per cell.
    void ghost_cells(const ColorContext& ctx, uint64_t gx, uint64_t gy, uint32_t x0, Rgba8* out, uint64_t* blocks) {
        const LaunchConfig& launch = layout_.launch;
        const uint64_t ex = uint64_t(launch.grid.x) * launch.block.x, ey = uint64_t(launch.grid.y) * launch.block.y;
        const bool along_x = layout_.placement != ThreadPlacement::XRow;  // XRow: y of cuda.grid runs across
        CellSample s;
        s.kind = CellSample::Ghost;
        s.block = {uint32_t(gx / launch.block.x), uint32_t(gy / launch.block.y), 0};
        s.thread = {uint32_t(gx % launch.block.x), uint32_t(gy % launch.block.y), 0};
        for (uint32_t x = x0; x < layout_.width; ++x) {
            if (gx >= ex || gy >= ey) {
                out[x] = colorize(CellSample{}, ctx);  // no thread lands here
                if (blocks) blocks[x] = kNoBlock;
            } else {
                const uint64_t b = block_linear(s.block, launch.grid);
                const uint64_t key = element_color_key(ctx, b, uint32_t(thread_linear(s.thread, launch.block)), 0);
                out[x] = kept(key, true, [&] { return colorize(s, ctx); });
                if (blocks) blocks[x] = b;
            }
            if (along_x) {
                ++gx;
                if (++s.thread.x == launch.block.x) s.thread.x = 0, ++s.block.x;
            } else {
                ++gy;
                if (++s.thread.y == launch.block.y) s.thread.y = 0, ++s.block.y;
            }
        }
    }

    // A written element's colour: what colorize(sample_cell) gives, from its first writer.
    Rgba8 element_color(const ColorContext& ctx, uint32_t touches, uint32_t first, uint64_t e) const {
        const Toucher t = decoder_.decode(first);
        CellSample s;
        s.kind = CellSample::Element;
        s.touches = touches;
        s.block = t.block;
        s.thread = t.thread;
        if (cost_) s.cost = cost_[e];
        return colorize(s, ctx);
    }

    // Any other cell's colour, and its block.
    CellColor computed(uint32_t x, uint32_t y) const {
        CellSample s = sample(layout_, map_, decoder_, x, y);
        if (cost_ && s.kind == CellSample::Element) s.cost = cost_[layout_.element_index(x, y)];
        const uint64_t block = s.kind == CellSample::Empty ? kNoBlock
                               : s.kind == CellSample::Element && s.touches == 0
                                   ? kUntouched
                                   : block_linear(s.block, map_.launch.grid);
        return {colorize(s, ctx_), block};
    }

    const MapLayout& layout_;
    const ThreadMap& map_;
    const ToucherDecoder& decoder_;
    const ColorContext& ctx_;
    const uint8_t* cost_;
    Rgba8 untouched_;
    uint64_t keys_[kSlots];
    Rgba8 colors_[kSlots];
};

}  // namespace

void colorize_layout(const MapLayout& layout, const ThreadMap& map, const ColorContext& ctx, Rgba8* out,
                     const uint8_t* cost) {
    const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    const ToucherDecoder decoder(map.launch);
    const auto rows = [&](uint32_t y0, uint32_t y1) {
        RowColorer color_row(layout, map, decoder, ctx, cost);
        if (!layout.outline_by_toucher) {
            for (uint32_t y = y0; y < y1; ++y) color_row(y, out + uint64_t(y) * layout.width, nullptr);
            return;
        }
        // An edge where a cell's block differs from its left or upper neighbour's.
        std::vector<uint64_t> above(layout.width, kNoBlock), here(layout.width);
        std::vector<Rgba8> scratch(layout.width);
        if (y0 > 0) color_row(y0 - 1, scratch.data(), above.data());
        for (uint32_t y = y0; y < y1; ++y) {
            Rgba8* row = out + uint64_t(y) * layout.width;
            color_row(y, row, here.data());
            for (uint32_t x = 0; x < layout.width; ++x)
                if (here[x] != kNoBlock)
                    row[x].a = uint8_t((row[x].a & ~kEdgeBits) | (x > 0 && here[x - 1] != here[x] ? kEdgeLeft : 0) |
                                       (y > 0 && above[x] != here[x] ? kEdgeTop : 0));
            std::swap(above, here);
        }
    };
    if (workers == 1 || uint64_t(layout.width) * layout.height < 65536) {
        rows(0, layout.height);
        return;
    }
    std::vector<std::jthread> pool;
    for (unsigned i = 0; i < workers; ++i)
        pool.emplace_back(rows, uint32_t(uint64_t(layout.height) * i / workers),
                          uint32_t(uint64_t(layout.height) * (i + 1) / workers));
}

}  // namespace threadmap
