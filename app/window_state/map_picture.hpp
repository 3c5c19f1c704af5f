// The path from a checked launch to the coloured cells on screen: emulate, lay out, colour.
// The window and `threadmap render` both go through it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "app/launch/backend_choice.hpp"
#include "viz/draw/cell_grid_renderer.hpp"
#include "viz/color/colorizer.hpp"
#include "viz/draw/cuda_interop.hpp"
#include "app/launch/launch_options.hpp"
#include "viz/draw/legend.hpp"
#include "viz/layout/map_layout.hpp"
#include "kernels/model/model_emulator.hpp"
#include "app/reports/occupancy_report.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// The kernel model's findings for the picture's launch (the Findings tab), or why it was not
// checked (too large to check while the window waits).
struct PictureFindings {
    std::vector<Finding> list;  // the first kMaxListed, sorted by kind
    std::array<uint64_t, kFindingKinds> counts{};
    std::string not_checked;
    std::string output;  // the name of the mapped array in the model ("a", "C")
    // Per element of the mapped array: ElementFinding bits (the Findings colour mode); empty
    // when not checked.
    std::vector<uint8_t> found;
    KernelPrint printed;  // what a learner's kernel printed (the Editor tab shows it)
    // Out-of-bounds accesses to the mapped array that no cell past its end can show (before its
    // start, or farther than kernels/model's past_window): the legend counts them.
    uint64_t past_elsewhere = 0;
    // The block where the launch ended at a divergent barrier or warp call, each thread's side
    // (its cells carry kFoundBarrier* bits in `found`).
    std::optional<DivergedBlock> diverged;
    static constexpr size_t kMaxListed = 200;
};

// Launches up to this many thread-steps (threads × inner) and global elements are checked
// with the map — within the frame for small launches, so kept to tens of milliseconds: the
// model checks every access, keeping 20 bytes per element (here `threadmap check --kernel
// increment --n 524288` takes 19-20 ms end to end, `--preset seed-matmul`, 2^22 steps,
// 120-140 ms; 2026-12-06).
inline constexpr uint64_t kFindingsWork = uint64_t(1) << 22;
inline constexpr uint64_t kFindingsElements = uint64_t(1) << 19;

// The memory view of the picture's launch (the Memory tab, the memory colour modes): every
// access site's requests, and per element of the mapped array what the requests of the mapped
// access (its stores, or its loads for a read map) cost; computed when asked for, for launches
// up to kMemoryViewWork thread-steps (the tutorial's matmul, 5·10^7, takes about 0.2 s here).
struct PictureMemory {
    bool computed = false;
    const KernelSpec* spec = nullptr;  // the kernel the model ran (its arrays name the sites)
    std::vector<MemorySite> sites;     // as `threadmap memory` lists them
    // `sites` has every array's (the Memory tab's table); else only the mapped array's, all a
    // memory colour mode needs (the coalescing lesson's matmul: its loads of A and B, 400 a
    // thread, left out of a map of its stores to C).
    bool every_site = false;
    // Per element: the costliest request's sectors (a global array) or wavefronts, the bank
    // conflict ways (a __shared__ array, in the mapped block), and the fewest active lanes;
    // 0: no request of the mapped access touched it.
    std::vector<uint8_t> costs, lanes;
    MemoryTotals totals;       // the mapped array's requests of the mapped access
    std::string not_computed;  // why not, when it was asked for and is missing
    // The mapped array's requests of the mapped access (stores, or loads for a read map; a
    // __shared__ array's in the mapped block) whole, each warp's in program order, and per
    // element the first that touched it (MemoryView::kNoRequest: none), for the warp inspector;
    // kept for arrays up to kWarpInspectorElements, kMaxKeptRequests requests (requests_capped:
    // more were made).
    std::vector<KeptRequest> requests;
    std::vector<uint32_t> request_of;
    bool requests_capped = false;
    ArrayPlace place;  // the mapped array's element size (a __shared__ one: where it lies, for its banks)
    // Bytes per lane of the mapped access's widest site (element bytes × a vector access's width):
    // what an element's "would do" is reckoned for.
    uint32_t access_bytes = 4;
};
inline constexpr uint64_t kWarpInspectorElements = uint64_t(1) << 22;
inline constexpr uint64_t kMemoryViewWork = uint64_t(1) << 26;

// The work of a launch: threads × the steps of its loop (matmul's inner), which sizes what the
// window computes within a frame.
uint64_t thread_steps(const ResolvedLaunch& launch);

struct MapPicture {
    uint64_t serial = 0;  // one number per built picture (a relayout or recolour keeps it)
    ResolvedLaunch launch;
    LaunchResult result;  // from a GPU its map may still be on the device: see host_map
    MapLayout layout;
    ColorContext color;
    std::shared_ptr<Executor> executor;  // the one that ran it
    // The layout's colours for `color`, made off the UI thread with the map (a launch at the
    // caps has millions of cells); empty when the next paint must make them.
    std::vector<Rgba8> prepared_colors;
    PictureFindings findings;
    // The launch on the chosen GPU (the SM and wave colours, the Occupancy tab); empty with
    // `occupancy_error` saying why when no GPU is chosen or the block fits on no SM.
    std::optional<OccupancyReport> occupancy;
    std::string occupancy_error;
    PictureMemory memory;
    uint32_t phases = 1;  // a model kernel's barrier phases (the phase slider's range)
    // PictureOptions::compare's picture: the same launch and view of the kernel or array a lesson
    // sets against this one, coloured alike, drawn beside it (none when it does not apply).
    std::shared_ptr<MapPicture> compare;
};

// The most cells a comparison picture has: it is drawn beside the map as one image.
inline constexpr uint64_t kMaxCompareCells = uint64_t(1) << 20;

// Colours the layout on the host into prepared_colors (a host map only: a GPU paints its own)
// when it has more cells than a frame colours quickly; smaller maps are coloured straight into
// the GL buffer when painted (no copy).
inline constexpr uint64_t kPaintInFrameCells = uint64_t(1) << 22;
void prepare_colors(MapPicture& picture);

// A picture with no map whose buffers (the map's and `colour_cells` prepared colours)
// hold `elements` and are faulted in now: build_picture refills them instead of fresh pages,
// which on this project's 2-core VM took 430-525 ms of a 4096² change's build against 150-200 ms.
MapPicture spare_buffers(uint64_t elements, uint64_t colour_cells);

// The per-element figures the picture's colour mode colours by (memory costs, findings), or
// null: colorize_layout's `cost`.
const uint8_t* element_figures(const MapPicture& picture);

// The colour cell (x, y) of the picture is painted, as colorize_layout paints it (the picture
// must outlive it): for the labels drawn over cells. Empty while the map is on a GPU only.
std::function<Rgba8(uint32_t x, uint32_t y)> cell_colors(const MapPicture& picture);

// The picture's map on the host, brought from the device the first time it is asked for
// (the inspector, a host paint), or why the device could not give it.
Outcome<const ThreadMap*> host_map(MapPicture& picture);

struct PictureOptions {
    ColorMode mode = ColorMode::Block;
    Palette palette = Palette::Standard;
    RowWidth rows;                         // 1D rows: whole blocks, or a wrapped block's warps
    uint32_t max_side = 16384;             // the GL texture limit
    uint64_t max_cells = kMaxDrawnCells;   // the GL buffer-texture limit
    std::optional<BackendChoice> backend;  // none: the emulator
    bool check_findings = true;            // run the kernel model for the Findings tab
    // No window waits for it (`render`): every launch the kernel model takes is checked, as
    // `threadmap check` checks it, not only those within kFindingsWork and kFindingsElements.
    bool findings_any_size = false;
    std::optional<OccupancyGpu> gpu;  // where blocks are placed: SM and wave colours
    bool memory = false;              // compute the memory view with every site (a memory mode: the mapped array's)
    // A lesson's comparison (lesson_comparison): built too, over the same launch, access, phase
    // and block, as MapPicture::compare, when the launch is a model kernel's, the kernel compared
    // has the array and its map has at most kMaxCompareCells cells.
    Comparison compare;
};

using PictureResult = Outcome<MapPicture>;  // error: one line

// previous: a picture to take buffers from (a window re-running the same shape); cancel:
// set it and the emulation stops, the failure a cancellation.
PictureResult build_picture(const ResolvedLaunch& launch, const PictureOptions& options, MapPicture* previous = nullptr,
                            const std::atomic<bool>* cancel = nullptr);

// The same map in rows of another number of blocks (1D); false, with the picture unchanged,
// when that layout cannot be drawn.
bool relayout(MapPicture& picture, const PictureOptions& options);

// Whether `m` was computed, with every array's sites when `every_site` asks for them (a view
// that could not be computed, too large or failed, is as ready as it will be).
inline bool memory_ready(const PictureMemory& m, bool every_site) {
    return m.computed && (m.every_site || !every_site || !m.not_computed.empty());
}

// Computes the picture's memory view unless memory_ready (a cancellation when cancelled: left
// as it was).
void compute_picture_memory(MapPicture& picture, bool every_site, const std::atomic<bool>* cancel = nullptr);

// Another colour mode, palette or GPU for the same map (no re-emulation; paint again after);
// a memory mode computes the memory view first if the picture has none.
void recolor(MapPicture& picture, ColorMode mode, Palette palette, const std::optional<OccupancyGpu>& gpu);

// The legend of the picture's colours (a memory mode's title carries the kernel-wide figure).
Legend picture_legend(const MapPicture& picture);
// A picture in one sentence: its kernel and array, its `role`, and its legend's figure, where
// the legend has one ("transpose-tiled-padded's tile of block (0,0,0), the same launch and view.
// All its loads: 1.00 wavefronts per request …"): what a map and its comparison say under each.
std::string picture_sentence(const MapPicture& picture, const std::string& role);

// Writes the picture's colours into the renderer's cells: on the GPU straight from the
// executor's device map when there is one (CUDA-OpenGL interop), else on the host. Returns
// where they were painted, for the status bar ("" on the host when no GPU ran the launch).
std::string paint_picture(MapPicture& picture, CellGridRenderer& renderer, CudaGlPainter& painter);

}  // namespace threadmap
