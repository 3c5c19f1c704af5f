// Map layout: wrapping 1D arrays into rows of blocks, ghost cells for idle threads, matrices.
#include <doctest/doctest.h>

#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "viz/layout/map_layout.hpp"

using namespace threadmap;

TEST_CASE("seed-increment-bug - one block per row - 500 elements - then 16492 ghosts") {
    Workload workload = array_workload(&IncrementBody::kernel, 500);
    const LaunchConfig launch{{531, 1, 1}, {32, 1, 1}};
    const auto r = make_layout(workload, launch, {1}, 16384);
    REQUIRE(r.value);
    const MapLayout& layout = *r.value;
    CHECK(layout.width == 32);
    CHECK(layout.height == 531);
    const LaunchResult result = emulate(workload, launch);
    const CellSample el = sample_cell(layout, result.map, 4, 3);  // element 100
    CHECK(el.kind == CellSample::Element);
    CHECK(el.block == Dim3{3, 0, 0});
    CHECK(el.thread == Dim3{4, 0, 0});
    const CellSample ghost = sample_cell(layout, result.map, 21, 16);  // position 533: past n
    CHECK(ghost.kind == CellSample::Ghost);
    CHECK(ghost.block == Dim3{16, 0, 0});
    CHECK(ghost.thread == Dim3{21, 0, 0});
    uint64_t ghosts = 0;
    for (uint32_t y = 0; y < layout.height; ++y)
        for (uint32_t x = 0; x < layout.width; ++x)
            ghosts += sample_cell(layout, result.map, x, y).kind == CellSample::Ghost;
    CHECK(ghosts == result.stats.threads_idle);
}

TEST_CASE("a sampler of many cells gives what sample_cell gives - a 1D, a 3-D and a matrix launch") {
    const auto same = [](const Workload& workload, const LaunchConfig& launch) {
        const auto r = make_layout(workload, launch, {1}, 16384);
        REQUIRE(r.value);
        const LaunchResult result = emulate(workload, launch);
        const CellSampler sampler(*r.value, result.map);
        for (uint32_t y = 0; y < r.value->height; ++y)
            for (uint32_t x = 0; x < r.value->width; ++x) {
                const CellSample a = sampler(x, y), b = sample_cell(*r.value, result.map, x, y);
                REQUIRE(a.kind == b.kind);
                REQUIRE(a.block == b.block);
                REQUIRE(a.thread == b.thread);
                REQUIRE(a.touches == b.touches);
            }
    };
    same(array_workload(&IncrementBody::kernel, 500), {{16, 1, 1000}, {32, 1, 1}});  // 1,000 writers an element
    same(array_workload(&IncrementBody::kernel, 500), {{531, 1, 1}, {32, 1, 1}});    // idle threads
    same(matmul_workload(&MatmulBody::kernel, 40, 30, 20), {{3, 4, 2}, {16, 8, 1}});
}

TEST_CASE("rows of several blocks - and a row width raised to fit the texture") {
    Workload workload = array_workload(&IncrementBody::kernel, 1000);
    const LaunchConfig launch{{8, 1, 1}, {128, 1, 1}};
    auto r = make_layout(workload, launch, {4}, 16384);
    REQUIRE(r.value);
    CHECK(r.value->width == 512);
    CHECK(r.value->height == 2);
    CHECK(r.value->element_at(10, 1) == 522u);
    // Blocks of 2 and at most 64 cells a side: 1000 cells need 8 blocks (16 cells) a row.
    r = make_layout(workload, {{500, 1, 1}, {2, 1, 1}}, {1}, 64);
    REQUIRE(r.value);
    CHECK(r.value->blocks_per_row == 8);
    CHECK(r.value->width == 16);
    CHECK(r.value->height == 63);
}

TEST_CASE("seed-matmul - C 200x200 inside a 512x512 launch - x runs down the rows") {
    Workload workload = matmul_workload(&MatmulBody::kernel, 200, 200, 200);
    workload.a_rows = workload.b_cols = 300;
    const LaunchConfig launch{{16, 16, 1}, {32, 32, 1}};
    const auto r = make_layout(workload, launch, {1}, 16384);
    REQUIRE(r.value);
    const MapLayout& layout = *r.value;
    CHECK(layout.width == 512);
    CHECK(layout.height == 512);
    CHECK(layout.block_w == 32);
    const LaunchResult result = emulate(workload, launch);
    const CellSample c = sample_cell(layout, result.map, 7, 40);  // C[40, 7]: i = 40 → block x 1, thread x 8
    CHECK(c.kind == CellSample::Element);
    CHECK(c.block == Dim3{1, 0, 0});
    CHECK(c.thread == Dim3{8, 7, 0});
    const CellSample g = sample_cell(layout, result.map, 300, 250);  // i = 250, j = 300: past C
    CHECK(g.kind == CellSample::Ghost);
    CHECK(g.block == Dim3{7, 9, 0});
    CHECK(g.thread == Dim3{26, 12, 0});
}

TEST_CASE("a matrix too large to draw is refused with the reason - huge ghost margins are trimmed") {
    const Workload big = matmul_workload(&MatmulXColBody::kernel, 20000, 10, 1);
    const auto r = make_layout(big, {{1, 1250, 1}, {16, 16, 1}}, {1}, 16384);
    CHECK_FALSE(r.value);
    CHECK(r.error.find("at most 16384") != std::string::npos);
    Workload workload = array_workload(&IncrementBody::kernel, 10);
    const auto t = make_layout(workload, {{1u << 20, 1, 1}, {1024, 1, 1}}, {1}, 16384, 1u << 20);
    REQUIRE(t.value);
    CHECK(uint64_t(t.value->width) * t.value->height <= (1u << 20) + 1024);
    CHECK(t.value->ghosts_not_drawn > 0);
}

TEST_CASE(
    "a wide C under a tall launch has its ghost rows trimmed - and a C of more cells than the map holds is refused") {
    // x → rows: 16,384 rows launched over C's 2,000, and 16,000 columns: more than 2^26 cells,
    // and only the rows have a margin (this layout once looped for ever).
    const Workload wide = matmul_workload(&MatmulBody::kernel, 2000, 16000, 2);
    const auto r = make_layout(wide, {{512, 1, 1}, {32, 1, 1}}, {1}, 16384);
    REQUIRE(r.value);
    CHECK(r.value->width == 16000);
    CHECK(r.value->height >= 2000);
    CHECK(uint64_t(r.value->width) * r.value->height <= kMaxDrawnCells);
    CHECK(r.value->ghosts_not_drawn > 0);
    const auto refused = make_layout(wide, {{512, 1, 1}, {32, 1, 1}}, {1}, 16384, 1u << 24);
    REQUIRE_FALSE(refused.value);
    CHECK(refused.error == "32000000 elements; the map can draw at most 16777216");
}

TEST_CASE("1D arrays wrap into rows of whole blocks that give the map the view's shape") {
    // seed-increment-bug: 531 blocks of 32 in a 16:9 view — 5 blocks per row, not a strip.
    const Workload bug = array_workload(&IncrementBody::kernel, 500);
    const LaunchConfig bug_launch{{531, 1, 1}, {32, 1, 1}};
    CHECK(row_width_for_aspect(bug, bug_launch, 16.0 / 9) == RowWidth{5, 0});
    for (const auto& [w, l] :
         {std::pair{bug, bug_launch},
          std::pair{array_workload(&IncrementBody::kernel, 1'000'000), LaunchConfig{{3907, 1, 1}, {256, 1, 1}}},
          std::pair{array_workload(&IncrementStrideBody::kernel, 100'000), LaunchConfig{{4, 1, 1}, {128, 1, 1}}}})
        for (double aspect : {0.5, 1.0, 16.0 / 9, 3.0}) {
            CAPTURE(aspect);
            const RowWidth k = row_width_for_aspect(w, l, aspect);
            const auto m = make_layout(w, l, k, 16384);
            REQUIRE(m.value);
            CHECK(m.value->width % l.block.x == 0);  // whole blocks
            CHECK(k.threads == 0);
            const double shape = double(m.value->width) / m.value->height;
            CHECK(shape / aspect < 1.6);
            CHECK(aspect / shape < 1.6);
        }
    // Two blocks of 32 in a wide view: eight rows of 8 threads (each block wrapped over four)
    // are closer to its shape than two rows of 32; in a view 100 times wider than tall, one row
    // of both blocks. Matrices are not wrapped.
    CHECK(row_width_for_aspect(array_workload(&IncrementBody::kernel, 64), {{2, 1, 1}, {32, 1, 1}}, 16.0 / 9) ==
          RowWidth{1, 8});
    CHECK(row_width_for_aspect(array_workload(&IncrementBody::kernel, 64), {{2, 1, 1}, {32, 1, 1}}, 100) ==
          RowWidth{2, 0});
    CHECK(row_width_for_aspect(matmul_workload(&MatmulBody::kernel, 50, 50, 5), {{2, 2, 1}, {32, 32, 1}}, 2) ==
          RowWidth{1, 0});
}

TEST_CASE("1D maps never collapse: a block wider than a row wraps over rows of whole warps") {
    // The CLI's default blockDim over 500 elements: two blocks of 256, each over rows of warps.
    const Workload workload = array_workload(&IncrementBody::kernel, 500);
    const LaunchConfig launch{{2, 1, 1}, {256, 1, 1}};
    const RowWidth rows = row_width_for_aspect(workload, launch, 16.0 / 9);
    CHECK(rows.threads > 0);
    const auto m = make_layout(workload, launch, rows, 16384);
    REQUIRE(m.value);
    CHECK(m.value->width % 32 == 0);  // rows end at warp boundaries
    CHECK(m.value->width < 256);
    CHECK(m.value->outline_by_toucher);  // blocks outlined where their threads' cells change block
    const double shape = double(m.value->width) / m.value->height;
    CHECK(shape / (16.0 / 9) < 2.0);
    CHECK((16.0 / 9) / shape < 2.0);
    // Element 300 (block 1, thread 44) where its row of warps puts it.
    uint32_t x = 0, y = 0;
    m.value->cell_of(300, x, y);
    CHECK(uint64_t(y) * m.value->width + x == 300);
    // Any 1D launch fills the shape of its view within a factor of three: n from 1 to 2^24,
    // blockDim from 1 to 1024 (the rows' width must suit a 16:9 view).
    for (uint64_t n : {uint64_t(1), uint64_t(33), uint64_t(500), uint64_t(5000), uint64_t(1) << 20, uint64_t(1) << 24})
        for (uint32_t b : {1u, 31u, 32u, 100u, 256u, 1000u, 1024u}) {
            CAPTURE(n);
            CAPTURE(b);
            const Workload workload = array_workload(&IncrementBody::kernel, n);
            const LaunchConfig launch{{uint32_t(std::min<uint64_t>((n + b - 1) / b, 65535)), 1, 1}, {b, 1, 1}};
            const auto laid = make_layout(workload, launch, row_width_for_aspect(workload, launch, 16.0 / 9), 16384);
            REQUIRE(laid.value);
            const double cells = double(laid.value->width) * laid.value->height;
            const double drawn = double(std::max<uint64_t>(n, uint64_t(launch.grid.x) * b));
            CHECK(cells < drawn * 2 + 2048);  // a last row part full, no more
            // The fitted picture's share of a 16:9 view: its shape's closeness to the view's.
            const double shape = double(laid.value->width) / laid.value->height;
            const double share = std::min(shape / (16.0 / 9), (16.0 / 9) / shape);
            if (drawn >= 64) CHECK(share > 0.35);
        }
}

TEST_CASE("a kernel-model map draws the cells past its array's end - 1D after it, 2D in rows under it") {
    Workload line;
    line.kernel = nullptr;
    line.n = 500;
    const LaunchConfig launch{{16, 1, 1}, {32, 1, 1}};
    auto r = make_layout(line, launch, {1}, 16384, kMaxDrawnCells, 12);
    REQUIRE(r.value);
    CHECK(r.value->width == 32);
    CHECK(r.value->height == 16);  // 512 cells: 500 elements and 12 past them
    CHECK(r.value->past_cells == 12);
    CHECK(r.value->past_index(20, 15) == 0);  // element 500
    CHECK(r.value->past_index(31, 15) == 11);
    CHECK(r.value->past_index(19, 15) == MapLayout::kNoElement);  // element 499
    CHECK_FALSE(r.value->element_at(20, 15));
    // A ThreadMap's past cells: the first toucher and its accesses; the rest stay empty.
    ThreadMap map(launch, 500);
    map.past_touches = {1, 0, 3};
    map.past_first_toucher = {500, 0, 37};
    const CellSample s = sample_cell(*r.value, map, 22, 15);
    CHECK(s.kind == CellSample::Past);
    CHECK(s.touches == 3);
    CHECK(s.block == Dim3{1, 0, 0});
    CHECK(s.thread == Dim3{5, 0, 0});
    CHECK(sample_cell(*r.value, map, 21, 15).kind == CellSample::Empty);
    CHECK(sample_cell(*r.value, map, 23, 15).kind == CellSample::Empty);  // past what the map holds
    const Rgba8 c = colorize(s, {ColorMode::Findings, Palette::Standard, launch.grid, launch.block});
    CHECK(c == Rgba8{finding_color(kFoundOutOfBounds, Palette::Standard).r,
                     finding_color(kFoundOutOfBounds, Palette::Standard).g,
                     finding_color(kFoundOutOfBounds, Palette::Standard).b, kGhostAlpha});

    // 4×5 and 7 cells past it: two rows under it, continuing row-major (row 4, then 5).
    Workload grid;
    grid.kernel = nullptr;
    grid.rows = 4;
    grid.cols = 5;
    r = make_layout(grid, {{1, 1, 1}, {8, 8, 1}}, {1}, 16384, kMaxDrawnCells, 7);
    REQUIRE(r.value);
    CHECK(r.value->width == 5);
    CHECK(r.value->height == 6);
    CHECK(r.value->past_index(0, 4) == 0);
    CHECK(r.value->past_index(1, 5) == 6);
    CHECK(r.value->past_index(2, 5) == MapLayout::kNoElement);
    CHECK(r.value->past_not_drawn == 0);
    // At most 5 cells a side: one past row is drawn, and the legend can say how many are not.
    r = make_layout(grid, {{1, 1, 1}, {8, 8, 1}}, {1}, 5, kMaxDrawnCells, 7);
    REQUIRE(r.value);
    CHECK(r.value->height == 5);
    CHECK(r.value->past_cells == 5);
    CHECK(r.value->past_not_drawn == 2);
}

TEST_CASE("a model kernel's short array wraps into a square too - a reduction's 256 sums, a histogram's 16 bins") {
    // One partial sum per block of 256 threads: a row of 256 would be a line; rows of 16 are square.
    const Workload partial = model_array_workload({256});
    const LaunchConfig reduce{{256, 1, 1}, {256, 1, 1}};
    const RowWidth rows = row_width_for_aspect(partial, reduce, 1.0);
    CHECK(rows.threads == 16);
    const auto m = make_layout(partial, reduce, rows, 16384, 1 << 20);
    REQUIRE(m.value);
    CHECK(m.value->width == 16);
    CHECK(m.value->height == 16);
    CHECK(m.value->outline_by_toucher);  // the model's outlines: where the toucher's block changes
    uint32_t x = 0, y = 0;
    m.value->cell_of(200, x, y);
    CHECK(x == 8);
    CHECK(y == 12);
    // 16 bins under blocks of 256: 4 rows of 4 for a square view, one row for a wide one.
    const Workload bins = model_array_workload({16});
    const LaunchConfig histogram{{16, 1, 1}, {256, 1, 1}};
    const auto square = make_layout(bins, histogram, row_width_for_aspect(bins, histogram, 1.0), 16384, 1 << 20);
    REQUIRE(square.value);
    CHECK(square.value->width == 4);
    CHECK(square.value->height == 4);
    const auto wide = make_layout(bins, histogram, row_width_for_aspect(bins, histogram, 16.0), 16384, 1 << 20);
    REQUIRE(wide.value);
    CHECK(wide.value->width == 16);
    CHECK(wide.value->height == 1);
}
