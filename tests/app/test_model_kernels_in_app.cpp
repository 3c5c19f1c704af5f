// The registry's kernels that only the kernel model runs (histogram-racy, the transposes, the
// reductions, …) in the launch options, the lessons, the window's picture and `render`: each
// maps its own array, with its findings, and its lessons tell the story its findings give.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/png_image.hpp"
#include "tests/run_binary.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/window_state/inspector_text.hpp"
#include "tests/app/lesson_launch.hpp"
#include "app/reports/lesson_text.hpp"
#include "app/launch/lessons.hpp"
#include "app/window_state/map_picture.hpp"
#include "app/reports/occupancy_report.hpp"

using namespace threadmap;

namespace {

uint64_t count(const PictureFindings& f, FindingKind kind) { return f.counts[size_t(kind)]; }

ResolvedLaunch resolved(const LaunchOptions& o) {
    auto r = resolve_launch(o);
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}

MapPicture picture_of(const ResolvedLaunch& resolved) {
    PictureOptions o;
    o.mode = ColorMode::Coverage;
    auto built = build_picture(resolved, o);
    REQUIRE_MESSAGE(built.value, built.error);
    return std::move(*built.value);
}

}  // namespace

TEST_CASE("--kernel of a model kernel takes its own parameters and maps its output") {
    LaunchOptions o;
    o.kernel = "histogram-racy";
    o.params["bins"] = "8";
    o.n = "1000";
    const ResolvedLaunch r = resolved(o);
    REQUIRE(r.model);
    CHECK(r.kernel_name() == "histogram-racy");
    CHECK(r.mapped_array() == "bins");
    CHECK(r.model->params == Params{1000, 8});
    CHECK(r.workload.kernel == nullptr);
    CHECK(element_count(r.workload) == 8);
    CHECK(r.launch.grid == Dim3{4, 1, 1});  // ⌈1000 / 256⌉

    LaunchOptions bad = o;
    bad.params["offset"] = "2";
    CHECK(resolve_launch(bad).error == "--offset is not a parameter of histogram-racy (it takes --n, --bins)");
    LaunchOptions tutorial;
    tutorial.kernel = "increment";
    tutorial.n = "100";
    tutorial.params["bins"] = "4";
    CHECK(resolve_launch(tutorial).error == "--bins is not a parameter of increment (it takes --n)");
    LaunchOptions mixed;
    mixed.preset = "seed-increment";
    mixed.kernel = "histogram-racy";
    CHECK(resolve_launch(mixed).error ==
          "--kernel histogram-racy takes other parameters than preset seed-increment's kernel increment; give its "
          "shape without --preset");
    LaunchOptions unknown;
    unknown.kernel = "histogram";
    CHECK(resolve_launch(unknown).error.find("unknown kernel 'histogram'; choose increment, ") == 0);
}

TEST_CASE("the tutorial's kernels resolve as every kernel does, and their fast body draws the writers' map") {
    // The spec's defaults (n 500), and the fast body's workload at them.
    const ResolvedLaunch inc = resolved({.kernel = "increment"});
    CHECK_FALSE(inc.model);
    CHECK(inc.workload == array_workload(&IncrementBody::kernel, 500));
    CHECK(inc.launch.grid == Dim3{2, 1, 1});
    CHECK(inc.launch.block == Dim3{256, 1, 1});
    // --inner left out follows --cols; A and B are exactly the operands of C.
    const ResolvedLaunch mm = resolved({.kernel = "matmul", .rows = "100", .cols = "50"});
    CHECK(mm.workload == matmul_workload(&MatmulBody::kernel, 100, 50, 50));
    CHECK(mm.launch.grid == Dim3{7, 4, 1});  // x over rows, y over columns, blocks of 16×16
    // A shape given over a lesson's: A and B are exactly C's operands again (seed-matmul's are
    // 300 × 200 and 200 × 300), and the lesson's inner stays (grid-vs-block-dim's 4).
    CHECK(resolved({.preset = "seed-matmul", .rows = "100"}).workload ==
          matmul_workload(&MatmulBody::kernel, 100, 200, 200));
    CHECK(resolved({.preset = "grid-vs-block-dim", .cols = "64"}).workload.inner == 4);
    // A lesson's shape for another kernel with the same parameters: seed-matmul's A of 300 rows.
    const ResolvedLaunch xcol = resolved({.preset = "seed-matmul", .kernel = "matmul-xcol"});
    Workload seed = lesson_launch("seed-matmul").workload;
    seed.kernel = &MatmulXColBody::kernel;
    CHECK(xcol.workload == seed);
    CHECK(xcol.workload.a_rows == 300);
    // Another view than the writers of the output: the kernel model's picture, the store in
    // the loop where the lesson has it there.
    const ResolvedLaunch readers = resolved({.preset = "seed-matmul-store-in-loop", .access = "read"});
    REQUIRE(readers.model);
    CHECK(readers.model->spec == find_builtin_kernel("matmul-store-in-loop"));
    CHECK(readers.kernel_name() == "matmul-store-in-loop");
    CHECK(resolved({.preset = "seed-matmul-store-in-loop"}).kernel_name() == "matmul");
    // A shape the fast body cannot run (A with fewer rows than C): the kernel model's picture,
    // whose run finds the reads past A's end.
    const ResolvedLaunch short_a =
        resolved({.kernel = "matmul", .rows = "10", .cols = "4", .params = {{"a_rows", "8"}}});
    REQUIRE(short_a.model);
    CHECK(short_a.model->params == Params{10, 4, 4, 8, 4});
    // Another kernel at a lesson's shape does not take the lesson's view of its own kernel's
    // arrays (transpose-bank-conflicts maps tile; transpose-naive has none).
    ResolvedLaunch naive = resolved({.preset = "transpose-bank-conflicts", .kernel = "transpose-naive"});
    REQUIRE(open_on_lesson_view(naive, {.preset = "transpose-bank-conflicts", .kernel = "transpose-naive"}).done());
    CHECK(naive.mapped_array() == find_builtin_kernel("transpose-naive")->arrays[naive.model->array].name);
    CHECK(naive.model->params == lesson_launch("transpose-bank-conflicts").model->params);
}

TEST_CASE("a model lesson gives its kernel, parameters and block - and options given over it win") {
    const ResolvedLaunch r = lesson_launch("histogram-race");
    REQUIRE(r.model);
    CHECK(r.model->spec == find_builtin_kernel("histogram-racy"));
    CHECK(r.model->params == Params{4096, 16});
    CHECK(r.launch.block == Dim3{256, 1, 1});
    LaunchOptions o;
    o.preset = "histogram-race";
    o.params["bins"] = "4";
    o.block = "128";
    const ResolvedLaunch over = resolved(o);
    CHECK(over.model->params == Params{4096, 4});
    CHECK(over.launch.grid == Dim3{32, 1, 1});  // a new block gets the covering grid
    CHECK(over.preset == "histogram-race");
}

TEST_CASE("a model kernel's picture is the model's map of its array - with its findings and no idle-thread cells") {
    const MapPicture racy = picture_of(lesson_launch("histogram-race"));
    CHECK(racy.layout.width == 16);  // one row of the 16 bins
    CHECK(racy.layout.height == 1);
    uint64_t writers = 0;  // every value is counted into one bin: 4096 writes in all
    for (uint64_t bin = 0; bin < 16; ++bin) writers += racy.result.map.touches[bin];
    CHECK(writers == 4096);
    CHECK(racy.result.stats.elements_multi == 16);
    CHECK(count(racy.findings, FindingKind::WriteWriteRace) == 16);
    CHECK(racy.findings.output == "bins");

    // A transpose's output is rows × cols of its own: cols × rows of its input.
    const MapPicture picture = picture_of(lesson_launch("transpose-coalescing"));
    CHECK(picture.layout.width == 200);
    CHECK(picture.layout.height == 300);
    CHECK(picture.result.stats.elements_untouched == 0);
    // The launch covers more than the array (grid 10×7 of 32×32): no cell shows an idle thread.
    for (uint32_t y = 0; y < picture.layout.height; y += 7)
        for (uint32_t x = 0; x < picture.layout.width; x += 7)
            CHECK(sample_cell(picture.layout, picture.result.map, x, y).kind == CellSample::Element);

    // Who read: each element of the tiled matmul's A is read by one thread of each block along
    // its row of tiles (13 blocks across 200 columns of 16).
    ResolvedLaunch reads = lesson_launch("tiled-matmul");
    reads.model->array = reads.model->spec->array_index("A");
    reads.model->reads = true;
    reads.workload = model_workload(*reads.model, reads.launch);
    const MapPicture read_picture = picture_of(reads);
    CHECK(read_picture.layout.width == 200);
    CHECK(read_picture.result.map.touches[0] == 13);
    CHECK(read_picture.result.map.touches[200 * 200 - 1] == 13);
}

TEST_CASE("a hazard's advice fits its cause - an atomic for a read-modify-write, a barrier for a missing one") {
    const auto first_hazard = [](const char* preset) {
        LaunchOptions o;
        o.preset = preset;
        const MapPicture picture = picture_of(resolved(o));
        for (const Finding& f : picture.findings.list)
            if (f.kind == FindingKind::ReadWriteHazard) return f.message;
        FAIL("no hazard in " << preset);
        return std::string();
    };
    // bins[k]++ by many threads: no barrier mends it.
    const std::string histogram = first_hazard("histogram-race");
    CHECK(histogram.find("atomicAdd") != std::string::npos);
    CHECK(histogram.find("__syncthreads") == std::string::npos);
    // A tile read before it is whole: the barrier between the two lines.
    CHECK(first_hazard("missing-barrier").find("missing __syncthreads() between line 10 and line 14") !=
          std::string::npos);
}

TEST_CASE("the model lessons' findings tell their stories") {
    const auto figure = [](const char* lesson, const char* name) {
        const Lesson* l = find_lesson(lesson);
        REQUIRE(l);
        const auto& f = lesson_figures(*l);
        REQUIRE_MESSAGE(f.count(name), name);
        return f.at(name);
    };
    CHECK(figure("histogram-race", "races") == "16");
    CHECK(figure("histogram-atomic", "races") == "0");
    CHECK(figure("histogram-atomic", "hazards") == "0");
    CHECK(figure("tiled-matmul", "hazards") == "0");
    CHECK(figure("missing-barrier", "hazards") != "0");
    CHECK(figure("missing-guard", "out_of_bounds") != "0");
    CHECK(figure("stencil-halo", "uninitialized_reads") == "0");
    // The padded tile removes the tiled transpose's 32-way conflict.
    CHECK(figure("transpose-bank-conflicts", "shared_load_ways_max") == "32");
    CHECK(figure("transpose-bank-conflicts", "other_shared_load_wavefronts") == "1.00");
    // Sequential addressing keeps more lanes of each warp working, in fewer requests.
    CHECK(std::stod(figure("reduction-divergence", "shared_load_lanes")) <
          std::stod(figure("reduction-divergence", "other_shared_load_lanes")));
    CHECK(figure("transpose-coalescing", "store_sectors") == "30.00");
    // One element late: a fifth sector per warp's load; offset 0, the launch set against it, four.
    CHECK(figure("misaligned-access", "load_sectors") == "5.00");
    CHECK(figure("misaligned-access", "load_ideal") == "4.00");
    CHECK(figure("misaligned-access", "other_load_sectors") == "4.00");
    CHECK(figure("misaligned-access", "store_sectors") == "4.00");
    // A learner's kernel over bytes: every third byte of 96 spans 3 sectors where 1 would do.
    CHECK(figure("rgb-to-gray", "load_sectors") == "3.00");
    CHECK(figure("rgb-to-gray", "load_ideal") == "1.00");
    CHECK(figure("rgb-to-gray", "load_requests") == "384");  // 4096 threads: 128 warps, 3 loads each
    CHECK(figure("rgb-to-gray", "store_sectors") == "1.00");
    // Halves: a warp's 32 loads of 2 bytes fill 2 sectors (floats: 4).
    CHECK(figure("half-precision", "load_sectors") == "2.00");
    CHECK(figure("half-precision", "load_ideal") == "2.00");
    CHECK(figure("half-precision", "load_requests") == "64");  // 2048 threads: 64 warps
    CHECK(figure("half-precision", "store_sectors") == "2.00");
    // Warps of whole lanes: every shuffle reads a lane that takes part.
    CHECK(figure("warp-shuffle-sum", "uninitialized_reads") == "0");
    CHECK(figure("warp-shuffle-sum", "divergent_barriers") == "0");
    // A barrier inside an if: block 0 diverges, and its map shows the two sides.
    CHECK(figure("divergent-barrier", "divergent_barriers") == "1");
}

TEST_CASE("divergent-barrier - its map of s shows who waited and who had left - the fix has no finding") {
    PictureOptions po;
    po.mode = ColorMode::Findings;
    auto built = build_picture(lesson_launch("divergent-barrier"), po);
    REQUIRE_MESSAGE(built.value, built.error);
    const MapPicture& picture = *built.value;
    CHECK(picture.launch.mapped_array() == "s");  // the lesson's array
    REQUIRE(picture.findings.found.size() == 64);
    for (size_t t = 0; t < 64; ++t)
        CHECK(picture.findings.found[t] == (t < 32 ? kFoundBarrierWaiting : kFoundBarrierExited));
    // The look-for's fix: the barrier below the if's brace, still in the loop.
    std::string fixed = find_lesson("divergent-barrier")->own_kernel->text;
    const std::string inside =
        "            __syncthreads();  // inside the if: threads with t >= step never get here\n        }\n";
    REQUIRE(fixed.find(inside) != std::string::npos);
    fixed.replace(fixed.find(inside), inside.size(), "        }\n        __syncthreads();\n");
    const std::string path = "/tmp/threadmap-lesson-" + std::to_string(getpid()) + "-fixed.cu";
    std::ofstream(path) << fixed;
    const RunResult map = run_threadmap({"map", "--source", path, "--bind", "in=float[256]:ones", "--bind",
                                         "sums=float[4]", "--bind", "n=256", "--block", "64", "--format", "json"});
    std::filesystem::remove(path);
    REQUIRE(map.exit_code == 0);
    CHECK(map.out.find("\"findings\":[]") != std::string::npos);
    CHECK(map.out.find("\"array\":\"sums\"") != std::string::npos);
}

TEST_CASE(
    "a model map's block outlines follow the kernel's indexing - a transpose's output blocks are blockDim.y wide") {
    // transpose-naive, in 64x64, blockDim (32,8): block (bx,by) writes out[x][y] for x in
    // bx·32 … +32 (rows of out) and y in by·8 … +8 (columns): blocks 8 cells wide, 32 tall.
    LaunchOptions o;
    o.kernel = "transpose-naive";
    o.rows = "64";
    o.cols = "64";
    o.block = "32,8";
    const MapPicture picture = picture_of(resolved(o));
    REQUIRE(picture.layout.outline_by_toucher);
    std::vector<Rgba8> cells(size_t(picture.layout.width) * picture.layout.height);
    colorize_layout(picture.layout, picture.result.map, picture.color, cells.data(), nullptr);
    const auto edges = [&](uint32_t x, uint32_t y) {
        return cells[size_t(y) * picture.layout.width + x].a & kEdgeBits;
    };
    CHECK(edges(8, 5) == kEdgeLeft);  // a block's left side every 8 columns
    CHECK(edges(16, 32) == (kEdgeLeft | kEdgeTop));
    CHECK(edges(5, 32) == kEdgeTop);  // and its top every 32 rows
    CHECK(edges(5, 8) == 0);          // not every 8 rows, as blockDim (32,8) drawn x across would have it
    CHECK(edges(32, 5) == kEdgeLeft);
    CHECK(edges(33, 5) == 0);
    CHECK(edges(0, 0) == 0);  // the map's own edge is not marked
    // histogram-atomic: every bin written by threads of many blocks; the first writer of each
    // is in block 0, so the bins form one block, with no edges between them.
    LaunchOptions h;
    h.kernel = "histogram-atomic";
    const MapPicture bins = picture_of(resolved(h));
    std::vector<Rgba8> bin_cells(size_t(bins.layout.width) * bins.layout.height);
    colorize_layout(bins.layout, bins.result.map, bins.color, bin_cells.data(), nullptr);
    for (uint32_t x = 0; x < bins.layout.width; ++x) CHECK((bin_cells[x].a & kEdgeBits) == 0);
}

TEST_CASE("render draws a model kernel's map - bench and render --timing time it, and sweep it") {
    const std::string out = "/tmp/threadmap-model-render-" + std::to_string(getpid()) + ".png";
    const RunResult r = run_threadmap({"render", "--kernel", "histogram-racy", "--bins", "8", "--out", out, "--size",
                                       "640x360", "--color", "coverage"},
                                      {"-u DISPLAY", "ASAN_OPTIONS=detect_leaks=0"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const PngImage img = load_png(out);
    CHECK(img.width == 640);
    std::remove(out.c_str());
    // No GPU and no profile: the CPU's side alone, the kernel's C++ reference measured.
    const RunResult bench = run_threadmap({"bench", "--kernel", "histogram-racy", "--backend", "cpu", "--json"});
    REQUIRE_MESSAGE(bench.exit_code == 0, bench.err);
    CHECK(bench.out.find("C++ reference, 1 thread") != std::string::npos);
    const RunResult timing = run_threadmap({"render", "--timing", "--preset", "histogram-race", "--backend", "model",
                                            "--device-profile", "h200", "--out", out, "--size", "640x360"},
                                           {"-u DISPLAY", "ASAN_OPTIONS=detect_leaks=0"});
    REQUIRE_MESSAGE(timing.exit_code == 0, timing.err);
    CHECK(timing.err.find("no size sweep") == std::string::npos);
    CHECK(load_png(out).width == 640);
    std::remove(out.c_str());
}

TEST_CASE("the findings colour mode paints what the model found on each element - grey where it did not check") {
    LaunchOptions o;
    o.kernel = "increment";
    o.n = "500";
    o.block = "32,2";  // two threads write each element: a race on every one
    PictureOptions po;
    po.mode = ColorMode::Findings;
    auto built = build_picture(resolved(o), po);
    REQUIRE(built.value);
    MapPicture& picture = *built.value;
    CHECK(picture.color.findings_checked);
    const Rgba8 race = finding_color(kFoundRace, Palette::Standard);
    std::vector<Rgba8> cells(size_t(picture.layout.width) * picture.layout.height);
    prepare_colors(picture);  // small: painted in the frame; colour here as a paint would
    const Outcome<const ThreadMap*> map = host_map(picture);
    REQUIRE(map.value);
    colorize_layout(picture.layout, **map.value, picture.color, cells.data(), picture.findings.found.data());
    uint32_t x = 0, y = 0;
    picture.layout.cell_of(499, x, y);
    const Rgba8 got = cells[size_t(y) * picture.layout.width + x];
    CHECK((got.r == race.r && got.g == race.g && got.b == race.b));

    // The atomic histogram: every bin written by many threads, none with a finding.
    const MapPicture atomic = [] {
        PictureOptions f;
        f.mode = ColorMode::Findings;
        auto b = build_picture(lesson_launch("histogram-atomic"), f);
        REQUIRE(b.value);
        return std::move(*b.value);
    }();
    CHECK(atomic.findings.found == std::vector<uint8_t>(16, 0));
    CHECK(picture_legend(atomic).note.find("model of CUDA's") != std::string::npos);
    for (const LegendSwatch& s : picture_legend(atomic).swatches) CHECK_FALSE(s.ghost);

    // Too large to check while the window waits: grey, and the legend says why.
    LaunchOptions big;
    big.kernel = "increment";
    big.n = std::to_string(kFindingsElements * 2);
    auto large = build_picture(*resolve_launch(big).value, po);
    REQUIRE(large.value);
    CHECK_FALSE(large.value->color.findings_checked);
    CHECK(picture_legend(*large.value).note.find("Not checked: This launch is too large") == 0);
}

TEST_CASE("an unguarded kernel's accesses past the end are on the map - hatched cells after its array") {
    LaunchOptions o;
    o.kernel = "increment-unguarded";
    o.n = "500";
    o.block = "32";
    PictureOptions po;
    po.mode = ColorMode::Findings;
    auto built = build_picture(resolved(o), po);  // 512 threads: 12 past the 500 elements
    REQUIRE_MESSAGE(built.value, built.error);
    const MapPicture& picture = *built.value;
    CHECK(picture.layout.width == 32);
    CHECK(picture.layout.height == 16);
    CHECK(picture.layout.past_cells == 12);
    const CellSample past = sample_cell(picture.layout, picture.result.map, 20, 15);  // a[500]
    CHECK(past.kind == CellSample::Past);
    CHECK(past.block == Dim3{15, 0, 0});
    CHECK(past.thread == Dim3{20, 0, 0});
    CHECK(past.touches == 1);
    CHECK(sample_cell(picture.layout, picture.result.map, 19, 15).kind == CellSample::Element);
    std::vector<Rgba8> colours(size_t(picture.layout.width) * picture.layout.height);
    colorize_layout(picture.layout, picture.result.map, picture.color, colours.data(), picture.findings.found.data());
    const Rgba8 oob = finding_color(kFoundOutOfBounds, Palette::Standard);
    const Rgba8 at = colours[15 * 32 + 25];
    CHECK((at.r == oob.r && at.g == oob.g && at.b == oob.b));
    CHECK((at.a & ~kEdgeBits) == kGhostAlpha);  // hatched: not memory of the array
    const Legend g = picture_legend(picture);
    CHECK(std::any_of(g.swatches.begin(), g.swatches.end(),
                      [](const LegendSwatch& s) { return s.ghost && s.label == "out of bounds, past the end"; }));
    CHECK(g.note.find("not drawn") == std::string::npos);
    MapPicture inspected = std::move(*built.value);
    const CellDescription d = describe_cell(inspected, 20, 15);
    CHECK(d.heading == "a[500]: past the end of a (out of bounds)");
    CHECK(std::any_of(d.fields.begin(), d.fields.end(), [](const auto& f) {
        return f.first == "out-of-bounds writes" && f.second == "1 access, the thread with the smallest id shown";
    }));
    // A guarded kernel's map has none.
    o.kernel = "increment";
    auto guarded = build_picture(resolved(o), po);
    REQUIRE(guarded.value);
    CHECK(guarded.value->layout.past_cells == 0);
    CHECK(guarded.value->layout.height == 16);
}

TEST_CASE("one block's __shared__ array on the map - the missing barrier's hazards are on its tile") {
    LaunchOptions o;
    o.preset = "missing-barrier";
    o.array = "As";
    o.shared_block = "1,2";
    const auto r = resolve_launch(o);
    REQUIRE_MESSAGE(r.value, r.error);
    CHECK(r.value->model->shared_block == Dim3{1, 2, 0});
    CHECK(r.value->array_caption() == "As of block (1,2,0)");
    PictureOptions po;
    po.mode = ColorMode::Findings;
    auto built = build_picture(*r.value, po);
    REQUIRE_MESSAGE(built.value, built.error);
    const MapPicture& picture = *built.value;
    CHECK(picture.layout.width == 16);
    CHECK(picture.layout.height == 16);
    CHECK(picture.findings.found == std::vector<uint8_t>(256, kFoundHazard));
    // Every element written by the block's thread (tx, ty) = (column, row).
    const CellSample s = sample_cell(picture.layout, picture.result.map, 5, 3);
    CHECK(s.block == Dim3{1, 2, 0});
    CHECK(s.thread == Dim3{5, 3, 0});
    // The fixed kernel's tile: no findings. The memory colours say they are a global array's.
    o.preset = "tiled-matmul";
    auto fixed = build_picture(*resolve_launch(o).value, po);
    REQUIRE(fixed.value);
    CHECK(fixed.value->findings.found == std::vector<uint8_t>(256, 0));
    recolor(*fixed.value, ColorMode::Sectors, Palette::Standard, std::nullopt);
    CHECK(picture_legend(*fixed.value).note.find("As is __shared__") != std::string::npos);
}

TEST_CASE("the phase slider steps through a reduction's tree - each phase halves the writers of sdata") {
    LaunchOptions o;
    o.kernel = "reduce-sequential";
    o.n = "1024";
    o.block = "32";
    o.array = "sdata";
    for (uint32_t phase = 0; phase < 6; ++phase) {
        CAPTURE(phase);
        o.phase = std::to_string(phase);
        const auto r = resolve_launch(o);
        REQUIRE_MESSAGE(r.value, r.error);
        const MapPicture picture = picture_of(*r.value);
        CHECK(picture.phases == 7);  // the first barrier, then one per step s = 16, 8, 4, 2, 1
        // Phase 0 loads all 32; phase k (k ≥ 1) is step s = 32 >> k: threads tid < s write sdata[tid].
        const uint64_t writers = phase == 0 ? 32 : 32 >> phase;
        CHECK(picture.result.stats.elements - picture.result.stats.elements_untouched == writers);
        for (uint64_t e = 0; e < writers; ++e) {
            CHECK(picture.result.map.touches[e] == 1);
            CHECK(picture.result.map.first_toucher[e] == e);  // block 0's thread e
        }
    }
    o.kernel = "histogram-racy";
    o.array.clear();
    o.phase = "1";
    CHECK(resolve_launch(o).error ==
          "--phase: histogram-racy has no __syncthreads(): all its accesses are one phase; leave --phase out");
}

TEST_CASE("a shuffle from a lane that takes no part is on the map - the cells of the threads that took it") {
    // Lanes 0-15 of each warp read lanes 16-31, which the mask leaves out: undefined values.
    const std::string path = "/tmp/threadmap-shuffle-" + std::to_string(getpid()) + ".cu";
    std::ofstream(path) << "__global__ void half_warp(float* out) {\n"
                           "    int lane = threadIdx.x % 32;\n"
                           "    float v = lane;\n"
                           "    if (lane < 16) v = __shfl_sync(0x0000ffff, v, lane + 16);\n"
                           "    out[threadIdx.x] = v;\n"
                           "}\n";
    LaunchOptions o;
    o.source = path;
    o.binds = {"out=float[64]"};
    o.block = "64";
    PictureOptions po;
    po.mode = ColorMode::Findings;
    auto built = build_picture(resolved(o), po);
    std::filesystem::remove(path);
    REQUIRE_MESSAGE(built.value, built.error);
    MapPicture& picture = *built.value;
    // One finding per call, naming its first such lane; the map marks all sixteen of each warp.
    CHECK(count(picture.findings, FindingKind::UninitializedRead) == 2);
    REQUIRE(picture.findings.found.size() == 64);
    for (size_t e = 0; e < 64; ++e) CHECK(bool(picture.findings.found[e] & kFoundUndefinedShuffle) == (e % 32 < 16));
    // Painted as an uninitialised read, and the inspector and the legend say what it was.
    CHECK(finding_color(picture.findings.found[3], Palette::Standard) ==
          finding_color(kFoundUninit, Palette::Standard));
    const auto shuffle_field = [&](int column) -> std::string {
        const CellDescription d = describe_cell(picture, column, 0);
        for (const auto& f : d.fields)
            if (f.first == "undefined value (shuffle)") return f.second;
        return "";
    };
    CHECK(shuffle_field(32).find("takes a value from lane 16 through __shfl_sync at line 4") != std::string::npos);
    CHECK(shuffle_field(3).find("from a lane that took no part") != std::string::npos);
    CHECK(shuffle_field(20).empty());
    CHECK(picture_legend(picture).note.find("took an undefined value through\na shuffle") != std::string::npos);
}

TEST_CASE("a legend lists only what is on its picture - no 'more than one' without it, no finding kind not found") {
    const auto legend_of = [](const char* lesson, ColorMode mode) {
        PictureOptions o;
        o.mode = mode;
        auto b = build_picture(lesson_launch(lesson), o);
        REQUIRE(b.value);
        std::set<LegendCategory> categories;
        bool idle = false;
        for (const LegendSwatch& s : picture_legend(*b.value).swatches) {
            categories.insert(s.category);
            idle |= s.ghost;
        }
        return std::pair{categories, idle};
    };
    // seed-increment: every element written once, 12 idle threads.
    const auto [once, once_idle] = legend_of("seed-increment", ColorMode::Coverage);
    CHECK(once.count(LegendCategory::Multi) == 0);
    CHECK(once.count(LegendCategory::Untouched) == 0);
    CHECK(once_idle);
    // race-2d-block: two writers per element; its races and hazards, no uninitialised read.
    const auto [twice, twice_idle] = legend_of("race-2d-block", ColorMode::Coverage);
    CHECK(twice.count(LegendCategory::Multi) == 1);
    CHECK(twice_idle);  // the last block's 12 x 2 threads past the end
    // grid-stride: 128 threads, every one of them at work, each element written once.
    const auto [strided, strided_idle] = legend_of("grid-stride", ColorMode::Coverage);
    CHECK(strided.count(LegendCategory::Multi) == 0);
    CHECK_FALSE(strided_idle);
    const auto [raced, raced_idle] = legend_of("race-2d-block", ColorMode::Findings);
    CHECK(raced.count(LegendCategory::Race) == 1);
    CHECK(raced.count(LegendCategory::Hazard) == 1);
    CHECK(raced.count(LegendCategory::Uninitialized) == 0);
    // histogram-atomic: no finding of any kind, and a model map has no idle cells.
    const auto [clean, clean_idle] = legend_of("histogram-atomic", ColorMode::Findings);
    CHECK(clean.count(LegendCategory::Race) == 0);
    CHECK(clean.count(LegendCategory::Hazard) == 0);
    CHECK_FALSE(clean_idle);
}

// misaligned-access's point is 5 sectors a load where 4 would do; its cells' colours for 4 and 5
// are neighbouring teals, so the legend marks both figures on its ramp, where the cells are
// coloured (memory_ramp_at), and one mark once the offset makes the loads whole sectors.
TEST_CASE("the sectors legend marks the mapped array's mean and what would do on its ramp - one mark when equal") {
    const auto legend_of = [](const char* offset) {
        LaunchOptions o;
        o.preset = "misaligned-access";
        o.params = {{"offset", offset}};
        o.array = "in";  // the lesson's view: who read in
        o.access = "read";
        PictureOptions po;
        po.mode = ColorMode::Sectors;
        auto built = build_picture(resolved(o), po);
        REQUIRE_MESSAGE(built.value, built.error);
        return picture_legend(*built.value);
    };
    const Legend late = legend_of("1");
    REQUIRE(late.marks.size() == 2);
    CHECK(late.marks[0].label == "all: 5.00");
    CHECK(late.marks[0].at == doctest::Approx(std::log2(5.0) / 5));
    CHECK(late.marks[1].label == "would do: 4.00");
    CHECK(late.marks[1].at == doctest::Approx(0.4));
    const Legend whole = legend_of("0");
    REQUIRE(whole.marks.size() == 1);
    CHECK(whole.marks[0].label == "all: 4.00, as would do");
    CHECK(legend_of("8").marks.size() == 1);  // a whole sector further: whole sectors again
}

TEST_CASE("a lesson's comparison kernel is built beside its own only while the launch runs the lesson's kernel") {
    LaunchOptions o;
    o.preset = "transpose-coalescing";
    const ResolvedLaunch lesson = resolved(o);
    CHECK(lesson_comparison(lesson).kernel == "transpose-tiled");
    PictureOptions po;
    po.mode = ColorMode::Sectors;
    po.compare = lesson_comparison(lesson);
    auto built = build_picture(lesson, po);
    REQUIRE(built.value);
    MapPicture& picture = *built.value;
    REQUIRE(picture.compare);
    // The same launch and array, the other kernel: its stores coalesced where the naive one's are not.
    CHECK(picture.compare->launch.kernel_name() == "transpose-tiled");
    CHECK(picture.compare->launch.mapped_array() == "out");
    CHECK(picture.compare->launch.launch.grid == picture.launch.launch.grid);
    CHECK(picture.compare->memory.totals.sectors < picture.memory.totals.sectors / 4);
    // Recoloured with the map.
    recolor(picture, ColorMode::Block, Palette::Standard, std::nullopt);
    CHECK(picture.compare->color.mode == ColorMode::Block);
    // Built without its memory view (blockIdx colours), then coloured by banks: the comparison
    // gets its figures too, and with a GPU its SM colours.
    po.mode = ColorMode::Block;
    auto plain = build_picture(lesson, po);
    REQUIRE(plain.value);
    REQUIRE(plain.value->compare);
    CHECK_FALSE(plain.value->compare->memory.computed);
    recolor(*plain.value, ColorMode::Sectors, Palette::Standard, std::nullopt);
    CHECK(plain.value->compare->memory.computed);
    CHECK(element_figures(*plain.value->compare) != nullptr);
    const auto h200 = resolve_occupancy_gpu("h200", "", "");
    REQUIRE(h200.value);
    recolor(*plain.value, ColorMode::Sm, Palette::Standard, *h200.value);
    CHECK(plain.value->compare->occupancy.has_value());
    // The learner switched to the other kernel: no comparison (it would be the same picture).
    ResolvedLaunch switched = lesson;
    switched.model->spec = find_builtin_kernel("transpose-tiled");
    CHECK_FALSE(lesson_comparison(switched).any());
    // A lesson without one has none.
    o = {};
    o.preset = "seed-increment";
    CHECK_FALSE(lesson_comparison(resolved(o)).any());
}

TEST_CASE("tiled-matmul draws its B tile beside its A tile - the same block and phase, one array compared") {
    LaunchOptions o;
    o.preset = "tiled-matmul";
    ResolvedLaunch lesson = resolved(o);
    REQUIRE(apply_lesson_view(lesson, *find_lesson("tiled-matmul")).done());
    CHECK(lesson.mapped_array() == "As");
    const Comparison c = lesson_comparison(lesson);
    CHECK(c.kernel.empty());
    CHECK(c.array == "Bs");
    PictureOptions po;
    po.mode = ColorMode::ThreadY;
    po.compare = c;
    auto built = build_picture(lesson, po);
    REQUIRE(built.value);
    REQUIRE(built.value->compare);
    const ResolvedLaunch& beside = built.value->compare->launch;
    CHECK(beside.kernel_name() == "matmul-tiled");
    CHECK(beside.mapped_array() == "Bs");
    CHECK(beside.model->shared_block == lesson.model->shared_block);
    CHECK(beside.model->phase == lesson.model->phase);
    CHECK(built.value->compare->result.stats.threads_active > 0);  // the block's threads loaded it
    // The same kernel: its picture comes from the map's own run, and is the one Bs drawn on its
    // own gives (who loaded each element, the findings on it, the counts).
    PictureOptions alone_options = po;
    alone_options.compare = {};
    auto alone = build_picture(beside, alone_options);
    REQUIRE(alone.value);
    const MapPicture& shared_run = *built.value->compare;
    const ThreadMap &a = shared_run.result.map, &b = alone.value->result.map;
    REQUIRE(a.size() == b.size());
    CHECK(std::equal(a.touches.begin(), a.touches.end(), b.touches.begin()));
    CHECK(std::equal(a.first_toucher.begin(), a.first_toucher.end(), b.first_toucher.begin()));
    CHECK(shared_run.findings.found == alone.value->findings.found);
    CHECK(shared_run.findings.counts == alone.value->findings.counts);
    CHECK(shared_run.result.stats.threads_active == alone.value->result.stats.threads_active);
    CHECK(shared_run.layout.width == alone.value->layout.width);
    // Stepping the phase slider, as the lesson asks, makes the launch the learner's own (no
    // preset: mark_launch_edited) and keeps the B tile beside the A tile, at the new phase.
    ResolvedLaunch stepped = lesson;
    stepped.preset.clear();
    stepped.model->phase = 1;
    CHECK(lesson_comparison(stepped).array == "Bs");
    po.compare = lesson_comparison(stepped);
    auto next = build_picture(stepped, po);
    REQUIRE(next.value);
    REQUIRE(next.value->compare);
    CHECK(next.value->compare->launch.model->phase == 1);
    CHECK(next.value->compare->launch.mapped_array() == "Bs");
    // Mapping Bs itself: nothing to set beside it.
    ResolvedLaunch bs = lesson;
    bs.model->array = bs.model->spec->array_index("Bs");
    CHECK_FALSE(lesson_comparison(bs).any());
}
