// The real window under Xvfb (Mesa llvmpipe), driven by scripted input: each lesson's map
// has the colorizer's colours where the view says its cells are, the legend is drawn, the
// idle threads of seed-increment-bug are there, and typing a blockDim or turning the wheel
// changes the picture. Runs on the Xvfb scripts/test.sh starts, or xvfb-run's (scripts/setup.sh
// installs both).
#include <doctest/doctest.h>

#include <map>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/png_image.hpp"
#include "tests/run_binary.hpp"
#include "viz/draw/cell_grid_renderer.hpp"
#include "app/launch/launch_options.hpp"
#include "viz/draw/legend.hpp"
#include "app/launch/lessons.hpp"
#include "app/window_state/map_picture.hpp"
#include "viz/draw/missing_product.hpp"

using namespace threadmap;
using nlohmann::json;

namespace {

// The X server the window runs on: the one scripts/test.sh starts for every window test
// (THREADMAP_TEST_DISPLAY), else one of its own per run, through xvfb-run (ctest run by hand).
std::string x_server() {
    const char* display = std::getenv("THREADMAP_TEST_DISPLAY");
    if (display && *display) return std::string("env DISPLAY=") + display;
    REQUIRE_MESSAGE(std::system("command -v xvfb-run >/dev/null") == 0, "xvfb-run is missing: run scripts/setup.sh");
    return "xvfb-run -a -s '-screen 0 1920x1080x24'";
}

struct WindowRun {
    std::string dir;
    RunResult result;
    std::string path(const std::string& name) const { return dir + "/" + name; }
};

// Runs the window with a replay script ("FRAME COMMAND …" lines; FILE names are relative
// to a fresh folder) and returns where its outputs are.
WindowRun run_window(const std::vector<std::string>& args, const std::string& script) {
    static int counter = 0;
    WindowRun w;
    w.dir = "/tmp/threadmap-gui-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    std::filesystem::create_directories(w.dir);
    std::string text = script;
    for (size_t at; (at = text.find("@/")) != std::string::npos;) text.replace(at, 2, w.dir + "/");
    std::ofstream(w.path("script.replay")) << text;
    std::vector<std::string> all = {"--no-settings", "--replay", w.path("script.replay")};
    all.insert(all.end(), args.begin(), args.end());
    if (std::find(args.begin(), args.end(), "--window-size") == args.end())
        all.insert(all.end(), {"--window-size", "1600x900"});
    w.result = run_threadmap(all, {}, x_server());
    REQUIRE_MESSAGE(w.result.exit_code == 0, w.result.err);
    return w;
}

json load_json(const std::string& path) {
    std::ifstream f(path);
    REQUIRE_MESSAGE(f, path);
    return json::parse(f);
}

// The picture the window should show, in the rows the window chose for a 1D map.
MapPicture expected_picture(const LaunchOptions& o, const json& state) {
    auto r = resolve_launch(o);
    REQUIRE(r.value);
    // A lesson opens on its view: the array, access and phase it names.
    if (const Lesson* lesson = o.preset.empty() ? nullptr : find_lesson(o.preset))
        REQUIRE(apply_lesson_view(*r.value, *lesson).done());
    PictureOptions po;
    po.rows = {state["layout"]["blocks_per_row"], state["layout"]["threads_per_row"]};
    po.mode = parse_color_mode(std::string(state["color_mode"])).value();
    if (state.contains("occupancy")) po.gpu = resolve_occupancy_gpu(state["occupancy"]["device"], "", "").value;
    auto p = build_picture(*r.value, po);
    REQUIRE(p.value);
    return std::move(*p.value);
}

bool close(std::array<uint8_t, 3> a, std::array<float, 3> b, float tolerance) {
    for (int i = 0; i < 3; ++i)
        if (std::fabs(float(a[i]) - b[i]) > tolerance) return false;
    return true;
}

struct PixelCheck {
    int elements = 0, ghosts = 0, mismatches = 0;
};

// Where a replay's `state` says the map was drawn, and its view.
ViewRect state_map_rect(const json& state) {
    return {state["map_rect"][0], state["map_rect"][1], state["map_rect"][2], state["map_rect"][3]};
}
View state_view(const json& state) {
    View v;
    v.center = {state["view"]["center"][0], state["view"]["center"][1]};
    v.zoom = state["view"]["zoom"];
    return v;
}

// Compares the screenshot with the colours the colorizer gives, at pixels well inside a
// cell and away from outlines and the legend box.
PixelCheck check_map_pixels(const PngImage& img, const json& state, const MapPicture& picture) {
    const ViewRect r = state_map_rect(state);
    const View v = state_view(state);
    const MapLayout& layout = picture.layout;
    const auto missing = missing_product(layout.workload);
    const Rgba8 bg = kSceneBackground;
    std::optional<glm::i64vec2> pinned;
    if (state.contains("pinned_cell")) pinned = glm::i64vec2(state["pinned_cell"][0], state["pinned_cell"][1]);
    // The picture's own labels over cells (names, block numbers, indices) hide what is under them.
    std::vector<ViewRect> labels;
    for (const auto& l : state.value("labels_over_cells", json::array())) labels.push_back({l[0], l[1], l[2], l[3]});
    const auto under_label = [&](int px, int py) {
        for (const ViewRect& l : labels)
            if (px >= l.x - 1 && px <= l.x + l.w + 1 && py >= l.y - 1 && py <= l.y + l.h + 1) return true;
        return false;
    };
    PixelCheck c;
    for (int py = int(r.y) + 2; py < int(r.y + r.h) - 2; py += 5)
        for (int px = int(r.x) + 2; px < int(r.x + r.w) - 2; px += 5) {
            if (under_label(px, py)) continue;
            const glm::dvec2 w = screen_to_world(v, r, {px + 0.5, py + 0.5});
            if (missing) {  // the outline of A·B and its sentence under it
                const double edge = 4 / v.zoom;
                const WorldRect& a = missing->product;
                const bool on_outline =
                    w.x > a.x0 - edge && w.x < a.x1 + edge && w.y > a.y0 - edge && w.y < a.y1 + edge &&
                    !(w.x > a.x0 + edge && w.x < a.x1 - edge && w.y > a.y0 + edge && w.y < a.y1 - edge);
                const bool under = w.y >= a.y1 && w.y < a.y1 + 60 / v.zoom;
                if (on_outline || under) continue;
            }
            if (w.x < 0 || w.y < 0 || w.x >= layout.width || w.y >= layout.height) continue;
            // Stay clear of cell edges (rounding), and of the borders and outlines the
            // renderer draws when they are wide enough to see.
            const double ex = (w.x - std::floor(w.x)) * v.zoom, ey = (w.y - std::floor(w.y)) * v.zoom;
            const double far = v.zoom * 0.98;
            if (ex < 0.02 * v.zoom || ey < 0.02 * v.zoom || ex > far || ey > far) continue;
            if (v.zoom >= 6 && (ex < 1.5 || ey < 1.5)) continue;
            const uint32_t cx = uint32_t(w.x), cy = uint32_t(w.y);
            if (pinned && std::abs(int64_t(cx) - pinned->x) <= 1 && std::abs(int64_t(cy) - pinned->y) <= 1)
                continue;  // the pinned cell's outline, over it and its neighbours' edges
            if (layout.outline_by_toucher && v.zoom >= 4 && (ex < 2.5 || ey < 2.5)) continue;  // may be an edge
            if (layout.block_w * v.zoom >= 8 && cx % layout.block_w == 0 && ex < 2.5) continue;
            if (layout.block_h * v.zoom >= 8 && cy % layout.block_h == 0 && ey < 2.5) continue;
            CellSample s = sample_cell(layout, picture.result.map, cx, cy);
            if (s.kind == CellSample::Empty) continue;
            if (is_memory_mode(picture.color.mode) && s.kind == CellSample::Element) {
                const auto& costs =
                    picture.color.mode == ColorMode::Lanes ? picture.memory.lanes : picture.memory.costs;
                s.cost = costs.at(*layout.element_at(cx, cy));
            }
            if (picture.color.mode == ColorMode::Findings && picture.color.findings_checked &&
                s.kind == CellSample::Element)
                s.cost = picture.findings.found.at(*layout.element_at(cx, cy));  // its finding bits
            const Rgba8 e = colorize(s, picture.color);
            const auto got = img.at(px, py);
            if (s.kind == CellSample::Element) {
                ++c.elements;
                if (!close(got, {float(e.r), float(e.g), float(e.b)}, 1)) ++c.mismatches;
            } else {  // faded towards the background, and darker on the hatch lines
                ++c.ghosts;
                const std::array<float, 3> faded = {e.r * 0.55f + bg.r * 0.45f, e.g * 0.55f + bg.g * 0.45f,
                                                    e.b * 0.55f + bg.b * 0.45f};
                const std::array<float, 3> hatched = {faded[0] * 0.6f, faded[1] * 0.6f, faded[2] * 0.6f};
                if (!close(got, faded, 2) && !close(got, hatched, 2)) ++c.mismatches;
            }
        }
    return c;
}

LaunchOptions preset(const std::string& name) {
    LaunchOptions o;
    o.preset = name;
    return o;
}

}  // namespace

TEST_CASE("every lesson opens - and its map pixels are the colorizer's colours where the view puts them") {
    for (const char* name :
         {"seed-increment", "seed-increment-bug", "grid-stride", "seed-matmul", "seed-matmul-fixed"}) {
        CAPTURE(std::string(name));
        const WindowRun w =
            run_window({"--preset", name}, "1 move 5 5\n2 wait idle\n4 state @/s.json\n4 screenshot @/w.png\n5 quit\n");
        const PngImage img = load_png(w.path("w.png"));
        REQUIRE(img.valid());
        CHECK(img.width == 1600);
        const json s = load_json(w.path("s.json"));
        const PixelCheck c = check_map_pixels(img, s, expected_picture(preset(name), s));
        CHECK(c.elements > 30);  // seed-increment-bug: 500 elements atop 16,992 threads
        CHECK(c.mismatches == 0);
        if (std::string(name) == "seed-increment-bug" || std::string(name) == "seed-matmul") CHECK(c.ghosts > 200);
        // It opens in its view's colours (blockIdx where it names none).
        const std::string view_color = find_lesson(name)->view.color;
        CHECK(s["color_mode"] == (view_color.empty() ? "block" : view_color));
        // The legend in the map's margin, right of it or (a 1D map) under it: for blockIdx, the
        // first blocks' swatches.
        const ViewRect r{s["map_rect"][0], s["map_rect"][1], s["map_rect"][2], s["map_rect"][3]};
        const ViewRect l{s["legend_rect"][0], s["legend_rect"][1], s["legend_rect"][2], s["legend_rect"][3]};
        CHECK((l.x >= r.x + r.w || l.y >= r.y + r.h));  // never over the cells
        int swatches = 0;
        for (uint32_t b = 0; b < 4 && s["color_mode"] == "block"; ++b) {
            const Rgba8 e = categorical(b, Palette::Standard);
            bool found = false;
            for (int y = int(l.y); y < int(l.y + l.h) && !found; ++y)
                for (int x = int(l.x); x < int(l.x + l.w) && !found; ++x)
                    found = close(img.at(x, y), {float(e.r), float(e.g), float(e.b)}, 0);
            swatches += found;
        }
        CHECK(swatches == (s["color_mode"] == "block" ? 4 : 0));
        // The map fills its view: the fitted scene spans the view's width or its height, less
        // the margin its rulers and labels take.
        const double zoom = s["view"]["zoom"];
        const auto& m = s["fit_margins"];
        const double wide = double(s["layout"]["width"]) * zoom / (r.w - double(m[0]) - double(m[2])),
                     tall = double(s["layout"]["height"]) * zoom / (r.h - double(m[1]) - double(m[3]));
        if (std::string(name).rfind("seed-matmul", 0) != 0) CHECK(std::max(wide, tall) > 0.9);
        // seed-matmul: the 300x300 product C cannot hold is outlined in magenta.
        int magenta = 0;
        for (int y = int(r.y); y < int(r.y + r.h); ++y)
            for (int x = int(r.x); x < int(r.x + r.w); ++x)
                magenta += img.at(x, y) == std::array<uint8_t, 3>{255, 90, 200};
        CHECK((magenta > 300) == (std::string(name) == "seed-matmul"));
    }
}

TEST_CASE("typing a blockDim - turning the wheel and Ctrl+= change what is on screen") {
    const WindowRun w = run_window({"--preset", "seed-increment"},
                                   "1 move 5 5\n"
                                   "3 state @/s1.json\n3 screenshot @/a.png\n"
                                   "4 click blockDim.x\n5 key ctrl+a\n6 type 64\n7 key enter\n9 wait idle\n"
                                   "10 state @/s2.json\n10 screenshot @/b.png\n"
                                   "11 scroll 760 440 3\n"
                                   "14 state @/s3.json\n14 screenshot @/c.png\n"
                                   "15 move 5 5\n16 key ctrl+equal\n19 state @/s4.json\n20 quit\n");
    const json s1 = load_json(w.path("s1.json")), s2 = load_json(w.path("s2.json"));
    const json s3 = load_json(w.path("s3.json")), s4 = load_json(w.path("s4.json"));
    CHECK(s1["launch"]["block"] == json::array({32, 1, 1}));
    CHECK(s2["launch"]["block"] == json::array({64, 1, 1}));
    CHECK(s2["launch"]["grid"] == json::array({16, 1, 1}));  // gridDim stays what the learner set
    CHECK(file_bytes(w.path("a.png")) != file_bytes(w.path("b.png")));
    // The new picture is right, not only different: 64-thread blocks, 16 of them.
    LaunchOptions o = preset("seed-increment");
    o.block = "64";
    o.grid = "16";
    const PixelCheck c = check_map_pixels(load_png(w.path("b.png")), s2, expected_picture(o, s2));
    CHECK(c.elements > 200);
    CHECK(c.ghosts > 50);  // 1024 threads for 500 elements
    CHECK(c.mismatches == 0);
    CHECK(double(s3["view"]["zoom"]) > double(s2["view"]["zoom"]) * 1.5);
    CHECK(file_bytes(w.path("b.png")) != file_bytes(w.path("c.png")));
    CHECK(double(s4["ui_scale"]) > 1.0);
}

TEST_CASE("a drag pans the map - a resize, down to 1x1 and back, keeps the window drawing") {
    const WindowRun w = run_window({"--preset", "seed-increment"},
                                   "1 move 5 5\n2 wait idle\n3 state @/s1.json\n"
                                   "4 drag 760 440 660 400\n8 state @/s2.json\n"
                                   // The mouse off the map: a hovered cell is outlined.
                                   "9 resize 1 1\n12 resize 800 600\n14 move 5 5\n16 wait idle\n17 state @/s3.json\n"
                                   "17 screenshot @/small.png\n18 quit\n");
    const json s1 = load_json(w.path("s1.json")), s2 = load_json(w.path("s2.json")), s3 = load_json(w.path("s3.json"));
    CHECK(s1["view"]["center"] != s2["view"]["center"]);
    CHECK(double(s2["view"]["zoom"]) == doctest::Approx(double(s1["view"]["zoom"])));
    const PngImage img = load_png(w.path("small.png"));
    CHECK(img.width == 800);
    CHECK(img.height == 600);
    // The map is still drawn in its place in the smaller window, with the colorizer's colours
    // (seed-increment: no note drawn over the cells in a narrow view), as far as the pan left it
    // in view: a few rows at the view's left edge.
    const PixelCheck c = check_map_pixels(img, s3, expected_picture(preset("seed-increment"), s3));
    CHECK(c.elements > 40);
    CHECK(c.mismatches == 0);
}

TEST_CASE("a lesson of a kernel only the model runs opens - its map is the model's and its findings are listed") {
    for (const char* name : {"histogram-race", "missing-barrier", "transpose-coalescing"}) {
        CAPTURE(std::string(name));
        const WindowRun w = run_window({"--preset", name},
                                       "1 move 5 5\n2 wait idle\n3 click tab:Map\n4 click tab:Findings\n"
                                       "6 state @/s.json\n6 screenshot @/w.png\n7 quit\n");
        const json s = load_json(w.path("s.json"));
        const PngImage img = load_png(w.path("w.png"));
        REQUIRE(img.valid());
        const PixelCheck c = check_map_pixels(img, s, expected_picture(preset(name), s));
        CHECK(c.elements >= 16);
        CHECK(c.mismatches == 0);
        CHECK(c.ghosts == 0);  // a model kernel's map has no idle-thread cells
        const std::string kernel = s["kernel"];
        if (kernel == "histogram-racy") CHECK(s["findings"] == 32);  // a race and a hazard per bin
        if (kernel == "matmul-tiled-nosync") CHECK(s["findings"] > 0);
        if (kernel == "transpose-naive") CHECK(s["findings"] == 0);
    }
}

TEST_CASE("the Findings tab names the race of increment on a 2D block - a click pins its element") {
    const WindowRun w =
        run_window({"--kernel", "increment", "--n", "500", "--block", "32,2"},
                   // the list's fourth finding lies below a 900-px window's fold: scrolled into view
                   "1 move 5 5\n3 wait idle\n4 click tab:Findings\n6 scroll 1440 600 -1\n7 move finding:3\n"
                   "8 click finding:3\n10 move 5 5\n11 state @/s.json\n11 screenshot @/f.png\n12 quit\n");
    const json s = load_json(w.path("s.json"));
    CHECK(s["findings"] == 1000);  // 500 races and 500 hazards: each element, twice written
    // The fourth finding is the race on a[3]; a 1D map of 500 elements in rows of whole blocks.
    uint32_t x = 0, y = 0;
    const MapPicture expected = expected_picture(LaunchOptions{.kernel = "increment", .n = "500", .block = "32,2"}, s);
    expected.layout.cell_of(3, x, y);
    CHECK(s["pinned_cell"] == json::array({x, y}));
    CHECK(double(s["view"]["zoom"]) >= 24);
}

TEST_CASE("missing-guard - the writes past the end are hatched cells after the array - a click pins one") {
    const WindowRun w = run_window({"--preset", "missing-guard"},
                                   "1 move 5 5\n3 wait idle\n4 click tab:Findings\n6 click findings:findings\n"
                                   "8 wait idle\n9 move finding:1\n10 click finding:1\n12 move 5 5\n"
                                   "13 state @/s.json\n13 screenshot @/f.png\n14 quit\n");
    const json s = load_json(w.path("s.json"));
    CHECK(s["findings"] == 24);
    CHECK(s["color_mode"] == "findings");
    // The second finding: thread 500 writes a[500], the first cell after the array's 500.
    const MapPicture expected = expected_picture(preset("missing-guard"), s);
    CHECK(expected.layout.past_cells == 12);
    uint32_t x = 0, y = 0;
    expected.layout.cell_of(500, x, y);
    CHECK(s["pinned_cell"] == json::array({x, y}));
    const PixelCheck c = check_map_pixels(load_png(w.path("f.png")), s, expected);
    CHECK(c.elements > 30);
    CHECK(c.ghosts > 20);  // the cells past the end that the pinned one's outline leaves clear
    CHECK(c.mismatches == 0);
}

TEST_CASE("a divergent barrier - its block's threads coloured by where they were - a click pins one that left") {
    const std::string cu = "/tmp/threadmap-gui-" + std::to_string(getpid()) + "-block-sum.cu";
    std::ofstream(cu) << "__global__ void block_sum(const float* in, float* out, int n) {\n"
                         "    __shared__ float s[256];\n"
                         "    int t = threadIdx.x;\n"
                         "    s[t] = in[blockIdx.x * blockDim.x + t];\n"
                         "    for (int step = blockDim.x / 2; step > 0; step /= 2) {\n"
                         "        if (t < step) {\n"
                         "            __syncthreads();\n"
                         "            s[t] += s[t + step];\n"
                         "        }\n"
                         "    }\n"
                         "    if (t == 0) out[blockIdx.x] = s[0];\n"
                         "}\n";
    // --array s: the window keeps it when the Editor opens the file.
    const WindowRun w = run_window({"--source", cu, "--bind", "in=float[1024]:ones", "--bind", "out=float[4]", "--bind",
                                    "n=1024", "--block", "256", "--grid", "4", "--array", "s"},
                                   "1 move 5 5\n3 wait idle\n4 click tab:Findings\n6 click findings:findings\n"
                                   "8 wait idle\n9 move finding:0\n10 click finding:0\n12 move 5 5\n"
                                   "13 state @/s.json\n13 screenshot @/f.png\n14 quit\n");
    std::filesystem::remove(cu);
    const json s = load_json(w.path("s.json"));
    CHECK(s["array"] == "s");
    CHECK(s["findings"] == 1);
    CHECK(s["color_mode"] == "findings");
    // Threads 128-255 skip the barrier on line 7 and end: s[128] is the first of theirs (its
    // cell in rows of the layout's width: a block wider than the view's shape wraps).
    const uint32_t width = s["layout"]["width"];
    CHECK(s["pinned_cell"] == json::array({128 % width, 128 / width}));
}

TEST_CASE("a shuffle's undefined value - a click on its finding pins the first cell of the thread that took it") {
    const std::string cu = "/tmp/threadmap-gui-" + std::to_string(getpid()) + "-half-warp.cu";
    std::ofstream(cu) << "__global__ void half_warp(float* out) {\n"
                         "    int lane = threadIdx.x % 32;\n"
                         "    float v = lane;\n"
                         "    if (lane < 16) v = __shfl_sync(0x0000ffff, v, lane + 16);\n"
                         "    out[threadIdx.x] = v;\n"
                         "}\n";
    const WindowRun w = run_window({"--source", cu, "--bind", "out=float[64]", "--block", "64"},
                                   "1 move 5 5\n3 wait idle\n4 click tab:Findings\n6 click findings:findings\n"
                                   "8 wait idle\n9 move finding:1\n10 click finding:1\n12 move 5 5\n"
                                   "13 state @/s.json\n14 quit\n");
    std::filesystem::remove(cu);
    const json s = load_json(w.path("s.json"));
    CHECK(s["findings"] == 2);
    // The second call's first such lane is thread 32: out[32], the first cell of the second warp.
    const uint32_t width = s["layout"]["width"];
    CHECK(s["pinned_cell"] == json::array({32 % width, 32 / width}));
}

TEST_CASE("a finding on a shared tile - a click maps that block's copy of the tile and pins its element") {
    // missing-barrier's fourth finding: the hazard on As[0][3] of block (0,0,0). From the map of
    // C, and from block (1,0,0)'s copy of Bs: either way the map becomes block 0's As.
    LaunchOptions from_bs{.kernel = "matmul-tiled-nosync", .rows = "16", .cols = "32", .inner = "32"};
    from_bs.array = "Bs";
    from_bs.shared_block = "1,0,0";
    for (const auto& [args, first_array] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--preset", "missing-barrier", "--array", "C"}, "C"},  // the lesson opens on As: start from C
             {{"--kernel", "matmul-tiled-nosync", "--rows", "16", "--cols", "32", "--inner", "32", "--array", "Bs",
               "--shared-block", "1,0,0"},
              "Bs"}}) {
        CAPTURE(first_array);
        const WindowRun w = run_window(args,
                                       "1 move 5 5\n3 wait idle\n3 state @/before.json\n4 click tab:Findings\n"
                                       // the list's fourth finding lies below a 900-px window's fold
                                       "6 scroll 1440 600 -1\n7 move finding:3\n8 click finding:3\n10 wait idle\n"
                                       "11 move 5 5\n12 state @/s.json\n12 screenshot @/f.png\n13 quit\n");
        CHECK(load_json(w.path("before.json"))["array"] == first_array);
        const json s = load_json(w.path("s.json"));
        CHECK(s["array"] == "As");
        CHECK(s["shared_block"] == json::array({0, 0, 0}));
        LaunchOptions o = first_array == "C" ? preset("missing-barrier") : from_bs;
        o.array = "As";
        o.shared_block = "0,0,0";
        const MapPicture expected = expected_picture(o, s);
        uint32_t x = 0, y = 0;
        expected.layout.cell_of(3, x, y);  // As is 16x16: element [0][3]
        CHECK(s["pinned_cell"] == json::array({x, y}));
        CHECK(double(s["view"]["zoom"]) >= 24);
        const PixelCheck c = check_map_pixels(load_png(w.path("f.png")), s, expected);
        CHECK(c.elements >= 4);
        CHECK(c.mismatches == 0);
    }
}

TEST_CASE("the Occupancy tab: 32 threads per block fill half an H200 SM - its button colours the map by SM") {
    const WindowRun w = run_window({"--kernel", "increment", "--n", "100000", "--block", "32"},
                                   "1 move 5 5\n3 wait idle\n4 click tab:Occupancy\n8 wait idle\n"
                                   "9 state @/o.json\n10 click occupancy:sm\n14 wait idle\n15 move 5 5\n"
                                   "17 state @/s.json\n17 screenshot @/sm.png\n18 quit\n");
    const json o = load_json(w.path("o.json"));
    CHECK(o["widgets"].contains("occupancy-sweep"));
    REQUIRE(o.contains("occupancy"));
    CHECK(o["occupancy"]["device"] == "h200");  // the Timing tab's first profile
    CHECK(o["occupancy"]["occupancy"] == 0.5);
    CHECK(o["occupancy"]["limiter"] == "blocks");
    CHECK(o["occupancy"]["waves"] == 1);
    const json s = load_json(w.path("s.json"));
    CHECK(s["color_mode"] == "sm");
    // The map's pixels: blockIdx.x % 132 (3125 blocks, one wave of 4224 slots).
    const PixelCheck c = check_map_pixels(load_png(w.path("sm.png")), s,
                                          expected_picture({.kernel = "increment", .n = "100000", .block = "32"}, s));
    CHECK(c.elements > 200);
    CHECK(c.mismatches == 0);
}

TEST_CASE("a map coloured by sectors counts its own array's requests - the Memory tab then counts every array's") {
    // The coalescing lesson opens on C coloured by its stores' sectors: A's and B's loads (400 a
    // thread) are not grouped for that; opening the Memory tab, whose table lists them, does.
    const WindowRun w = run_window({"--preset", "coalescing"},
                                   "1 move 5 5\n3 wait idle\n4 state @/map.json\n5 click tab:Memory\n8 wait idle\n"
                                   "9 state @/tab.json\n10 quit\n");
    const json map = load_json(w.path("map.json"));
    CHECK(map["color_mode"] == "sectors");
    REQUIRE(map.contains("memory"));
    CHECK(map["memory"]["every_site"] == false);
    CHECK(map["memory"]["totals"]["global_store"]["sectors_per_request"].get<double>() == doctest::Approx(200.0 / 7));
    CHECK(map["memory"]["totals"]["global_load"]["requests"] == 0);
    CHECK(map["memory"]["sites"].size() == 1);  // C's store
    const json tab = load_json(w.path("tab.json"));
    REQUIRE(tab.contains("memory"));
    CHECK(tab["memory"]["every_site"] == true);
    CHECK(tab["memory"]["totals"]["global_store"] == map["memory"]["totals"]["global_store"]);
    CHECK(tab["memory"]["totals"]["global_load"]["sectors_per_request"].get<double>() ==
          doctest::Approx(207.0 / 14));  // the Memory tab's test below, the seed's matmul
    CHECK(tab["memory"]["sites"].size() == 3);
}

TEST_CASE("the Memory tab counts the tutorial's 28.6 store sectors per request - its button colours the map by them") {
    const WindowRun w = run_window({"--preset", "seed-matmul"},
                                   "1 move 5 5\n3 wait idle\n4 click tab:Memory\n8 wait idle\n"
                                   "9 state @/m.json\n10 click memory:sectors\n14 wait idle\n15 move 5 5\n"
                                   "17 state @/s.json\n17 screenshot @/sectors.png\n18 quit\n");
    const json m = load_json(w.path("m.json"));
    REQUIRE(m.contains("memory"));
    CHECK(m["memory"]["totals"]["global_store"]["sectors_per_request"].get<double>() == doctest::Approx(200.0 / 7));
    CHECK(m["memory"]["totals"]["global_load"]["sectors_per_request"].get<double>() == doctest::Approx(207.0 / 14));
    CHECK(m["widgets"].contains("memory:sectors"));
    const json s = load_json(w.path("s.json"));
    CHECK(s["color_mode"] == "sectors");
    const MapPicture expected = expected_picture(preset("seed-matmul"), s);
    const PixelCheck c = check_map_pixels(load_png(w.path("sectors.png")), s, expected);
    CHECK(c.elements > 200);
    CHECK(c.mismatches == 0);
    // The warp inspector: the mouse over C[40, 7] shows its warp's store request, rows 32-63 of
    // column 7, 32 sectors where 4 would do.
    uint32_t x = 0, y = 0;
    expected.layout.cell_of(40 * 200 + 7, x, y);
    // Zoomed in at that cell first: at the fitted zoom a cell is under a pixel wide.
    const std::string cell = std::to_string(x) + " " + std::to_string(y);
    const WindowRun hover = run_window({"--preset", "seed-matmul"},
                                       "1 move 5 5\n3 wait idle\n4 click tab:Memory\n8 wait idle\n"
                                       "10 click memory:sectors\n14 wait idle\n15 scroll cell " +
                                           cell + " 6\n" + "17 move cell " + cell + "\n19 state @/h.json\n20 quit\n");
    const json h = load_json(hover.path("h.json"));
    REQUIRE(h.contains("request"));
    CHECK(h["request"]["sectors"] == 32);
    CHECK(h["request"]["ideal_sectors"] == 4);
    REQUIRE(h["request"]["elements"].size() == 32);
    CHECK(h["request"]["elements"][0] == 32 * 200 + 7);
    CHECK(h["request"]["elements"][31] == 63 * 200 + 7);
}

TEST_CASE("the warp inspector steps through a warp's load requests with the arrow keys") {
    // A read map of the seed's matmul: A[40, 7] is first read by the warp of rows 32-63 of C's
    // column 0, at k = 7 (its 8th execution of line 8); Right, Right goes to k = 9, Left to k = 8.
    const LaunchOptions o{.preset = "seed-matmul", .array = "A", .access = "read"};
    const std::vector<std::string> args = {"--preset", "seed-matmul", "--array", "A", "--access", "read"};
    const WindowRun first = run_window(args,
                                       "1 move 5 5\n3 wait idle\n4 click color:sectors\n8 wait idle\n9 move 5 5\n"
                                       "11 state @/s.json\n12 quit\n");
    const json s = load_json(first.path("s.json"));
    uint32_t x = 0, y = 0;
    expected_picture(o, s).layout.cell_of(40 * 200 + 7, x, y);
    const glm::dvec2 at = world_to_screen(state_view(s), state_map_rect(s), glm::dvec2(x + 0.5, y + 0.5));
    const std::string cell = std::to_string(int(at.x)) + " " + std::to_string(int(at.y));
    const WindowRun w =
        run_window(args, "1 move 5 5\n3 wait idle\n4 click color:sectors\n8 wait idle\n9 click " + cell +
                             "\n11 state @/0.json\n12 key right\n14 key right\n16 state @/2.json\n"
                             "17 key left\n19 state @/1.json\n20 screenshot @/steps.png\n21 quit\n");
    const auto request = [&](const char* name) { return load_json(w.path(name))["request"]; };
    const json r0 = request("0.json"), r2 = request("2.json"), r1 = request("1.json");
    REQUIRE(r0.is_object());
    CHECK(r0["line"] == 8);
    CHECK(r0["execution"] == 7);
    CHECK(r0["elements"][0] == 32 * 200 + 7);  // A[32, 7] … A[63, 7]: one column, 32 sectors
    CHECK(r0["sectors"] == 32);
    CHECK(r2["execution"] == 9);
    CHECK(r2["elements"][0] == 32 * 200 + 9);
    CHECK(r2["warp"] == r0["warp"]);
    CHECK(r1["execution"] == 8);
    CHECK(load_png(w.path("steps.png")).valid());
}

TEST_CASE("an invalid blockDim typed in is explained and the last valid map stays") {
    const WindowRun w = run_window({"--preset", "seed-increment"},
                                   "1 move 5 5\n3 screenshot @/a.png\n"
                                   "4 click blockDim.y\n5 key ctrl+a\n6 type 33\n7 key enter\n9 wait idle\n"
                                   "10 state @/s.json\n10 screenshot @/b.png\n11 quit\n");
    const json s = load_json(w.path("s.json"));
    CHECK(std::string(s["launch_error"]).find("has 1056 threads; a block may have at most 1024") != std::string::npos);
    CHECK(s["launch"]["block"] == json::array({32, 1, 1}));  // the last valid launch
    const PixelCheck c = check_map_pixels(load_png(w.path("b.png")), s, expected_picture(preset("seed-increment"), s));
    CHECK(c.elements > 200);
    CHECK(c.mismatches == 0);
}

TEST_CASE("export - Ctrl+S writes the map figure - an unwritable folder is a message - not a crash") {
    const std::string out = "/tmp/threadmap-gui-export-" + std::to_string(getpid());
    std::filesystem::create_directories(out);
    const WindowRun w = run_window({"--preset", "seed-matmul"},
                                   "1 move 5 5\n"
                                   "3 click folder\n4 key ctrl+a\n5 type " +
                                       out +
                                       "\n6 key enter\n"
                                       "7 move 5 5\n8 key ctrl+s\n10 key ctrl+shift+s\n"
                                       "12 click folder\n13 key ctrl+a\n14 type /proc/no-such-folder\n15 key enter\n"
                                       "16 move 5 5\n17 key ctrl+s\n19 screenshot @/after.png\n20 quit\n");
    int maps = 0, windows = 0;
    for (const auto& f : std::filesystem::directory_iterator(out)) {
        const std::string name = f.path().filename();
        CHECK(name.rfind("threadmap-seed-matmul-grid16x16x1-block32x32x1-block-", 0) == 0);
        const PngImage img = load_png(f.path());
        CHECK(img.valid());
        (name.find("-window-") != std::string::npos ? windows : maps)++;
        if (name.find("-window-") != std::string::npos) CHECK(img.width == 1600);
    }
    CHECK(maps == 1);
    CHECK(windows == 1);
    CHECK(load_png(w.path("after.png")).valid());  // it kept running after the failed export
    std::filesystem::remove_all(out);
}

TEST_CASE("a 4x export of a window over the pixel budget is saved at 2x off the UI thread - and says so") {
    const std::string out = "/tmp/threadmap-gui-budget-" + std::to_string(getpid());
    std::filesystem::create_directories(out);
    // 2400x1800 at 4x is 69 megapixels: over the 40-megapixel budget; 2x (17) fits.
    const WindowRun w = run_window({"--preset", "seed-increment", "--window-size", "2400x1800"},
                                   "1 move 5 5\n3 click folder\n4 key ctrl+a\n5 type " + out +
                                       "\n6 key enter\n7 click export-scale:4\n9 move 5 5\n10 key ctrl+shift+s\n"
                                       "11 state @/during.json\n12 wait idle\n13 state @/s.json\n14 quit\n");
    const json during = load_json(w.path("during.json")), s = load_json(w.path("s.json"));
    CHECK(std::string(during["message"]).rfind("saving " + out + "/threadmap-seed-increment", 0) == 0);
    CHECK(
        std::string(s["message"]).find(" (at 2x: 4x would be 9600x7200 pixels, over the 40-megapixel export budget)") !=
        std::string::npos);
    int files = 0;
    for (const auto& f : std::filesystem::directory_iterator(out)) {
        const PngImage img = load_png(f.path());
        CHECK(img.width == 4800);
        CHECK(img.height == 3600);
        ++files;
    }
    CHECK(files == 1);
    std::filesystem::remove_all(out);
}

TEST_CASE("a timing lesson opens the Timing tab - runs off the UI thread - and shows its bars with their origins") {
    // The lesson runs its timing when it opens (its view's "run"): no click on run.
    const WindowRun w = run_window({"--preset", "timing-copies-dominate"},
                                   "1 move 5 5\n4 wait idle\n7 click timing-sweep\n9 wait idle\n"
                                   "10 move 5 5\n12 state @/s.json\n12 screenshot @/t.png\n13 quit\n");
    const json s = load_json(w.path("s.json"));
    REQUIRE(s["timing"].is_object());
    for (const auto& stage : s["timing"]["stages"]) CHECK(stage["origin"] == "modeled");
    CHECK(s["timing"]["cpu_reference"]["origin"] == "measured");
    // The bars are on screen in the centre, which the lesson turned to its Timing view: an
    // h2d segment's colour over far more pixels than its legend swatch has.
    const PngImage img = load_png(w.path("t.png"));
    REQUIRE(img.valid());
    const double timing_tab_x = s["widgets"]["tab:Timing"][0];
    CHECK(timing_tab_x > 300);  // a tab of the centre, not of the right-hand column
    CHECK(timing_tab_x < 800);
    int h2d = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 300; x < img.width * 3 / 4; ++x) h2d += img.at(x, y) == std::array<uint8_t, 3>{78, 121, 167};
    CHECK(h2d > 3000);
    // The whole view fits 1600x900: the sweep chart's crossover line (yellow) is on screen,
    // and the last widget of the view ends above the status bar.
    int crossover = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 300; x < img.width * 3 / 4; ++x)
            crossover += close(img.at(x, y), {255, 230, 60}, 40);  // anti-aliased
    CHECK(crossover > 50);
    const double save_bottom = double(s["widgets"]["timing-save"][1]) + double(s["widgets"]["timing-save"][3]);
    CHECK(save_bottom < 900 - 40);
}

TEST_CASE("a timing lesson at 1280x720 - 'sweep sizes' is beside 'run', and its chart scrolls into view") {
    // Under the table, the button its Look for names was below the window's edge.
    const WindowRun w = run_window({"--preset", "timing-resident", "--window-size", "1280x720"},
                                   "1 move 5 5\n4 wait idle\n5 state @/before.json\n6 move timing-sweep\n"
                                   "7 click timing-sweep\n9 wait idle\n11 wait idle\n12 move 5 5\n14 state @/s.json\n"
                                   "14 screenshot @/t.png\n15 quit\n");
    const json before = load_json(w.path("before.json"));
    const json run = before["widgets"]["timing-run"], sweep = before["widgets"]["timing-sweep"];
    CHECK(double(sweep[1]) + double(sweep[3]) < 690);
    CHECK(double(sweep[1]) == doctest::Approx(double(run[1])));  // on run's line
    const PngImage img = load_png(w.path("t.png"));
    REQUIRE(img.valid());
    int crossover = 0;  // the chart's crossover line (yellow), on screen after the sweep
    for (int y = 0; y < img.height - 30; ++y)
        for (int x = 200; x < img.width * 5 / 6; ++x) crossover += close(img.at(x, y), {255, 230, 60}, 40);
    CHECK(crossover > 50);
}

TEST_CASE("a replay script without quit ends after its last step - with --screenshot and --quit-after-frames") {
    const WindowRun w = run_window({"--quit-after-frames", "5", "--screenshot", "/tmp/unused.png"},
                                   "3 wait idle\n4 state @/state.json\n");
    CHECK(std::filesystem::exists(w.path("state.json")));  // the script ran …
    CHECK(std::filesystem::exists("/tmp/unused.png"));     // … and ended with the screenshot asked for
    std::filesystem::remove("/tmp/unused.png");
    // An empty script ends too; a bad one exits 2 naming the line.
    const WindowRun empty = run_window({}, "");
    CHECK(empty.result.exit_code == 0);
    const std::string dir = "/tmp/threadmap-bad-replay-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/bad.replay") << "1 move 10 10\n2 click ten 20\n";
    const RunResult bad = run_threadmap({"--no-settings", "--replay", dir + "/bad.replay"}, {}, x_server());
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find(dir + "/bad.replay:2: expected 'click X Y' (numbers) or 'click WIDGET'") != std::string::npos);
    // A widget no frame draws stops the script there (its random `click?` form does not).
    std::ofstream(dir + "/nowidget.replay") << "1 move 10 10\n3 click? no-such-widget\n4 click no-such-widget\n";
    const RunResult missing = run_threadmap({"--no-settings", "--replay", dir + "/nowidget.replay"}, {}, x_server());
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find(dir + "/nowidget.replay:2:") == std::string::npos);
    CHECK(missing.err.find(dir + "/nowidget.replay:3: no widget 'no-such-widget' on screen at frame 4") !=
          std::string::npos);
    const RunResult folder = run_threadmap({"--no-settings", "--replay", dir}, {}, x_server());
    CHECK(folder.exit_code == 2);
    CHECK(folder.err.find("is a directory") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("who wrote C[63, 47] of the seed matmul: Ctrl+G, the index, Enter - the cell is pinned and named") {
    const WindowRun w =
        run_window({"--preset", "seed-matmul"},
                   "1 move 5 5\n2 wait idle\n3 key ctrl+g\n5 type 63, 47\n6 key enter\n8 state @/s.json\n"
                   "9 key ctrl+g\n11 key ctrl+a\n13 type 63, 4700\n15 key enter\n"
                   "17 state @/bad.json\n18 quit\n");
    const json s = load_json(w.path("s.json"));
    REQUIRE(s.contains("pinned_cell"));
    CHECK(s["pinned_cell"] == json::array({47, 63}));  // column j, row i
    // x runs down the rows: C[63, 47] is written by thread x = 63 % 32, y = 47 % 32 of block (1, 1).
    const std::string heading = s["inspector"]["heading"];
    CAPTURE(heading);
    CHECK(heading.find("63") != std::string::npos);
    const json& fields = s["inspector"]["fields"];
    CHECK(fields["blockIdx"] == "(1, 1, 0)");
    CHECK(fields["threadIdx"] == "(31, 15, 0)");
    const json bad = load_json(w.path("bad.json"));
    CHECK(bad["go_to_error"] == "index 4700 is past the array's 200 columns");
    CHECK(bad["pinned_cell"] == json::array({47, 63}));  // the last good one stays
}

TEST_CASE(
    "on a projector's 1280x720 and at 1600x900 the picture takes the window - the first lesson and the seed matmul") {
    // The picture's share of the window (its scene's rectangle on screen): the legend beside it
    // or, where a 1D map gains by it, a strip under it, wrapped narrower where the picture gains;
    // margins only as wide as the names and rulers drawn there; the axis note and the lesson's
    // "Look for" in the legend; side columns that leave the centre 850 of 1280 pixels. The
    // issue's targets: 30% in the normal layout, 55% in presentation mode; the seed matmul's
    // square scene (B above C, A left of it) cannot reach 55% of a 16:9 window (720 x 720 px
    // with no bars at all is 56%): it keeps what it has (29.5% and 34%).
    struct Case {
        const char* lesson;
        const char* size;
        bool presentation;
        double at_least;
    };
    for (const Case c :
         {Case{"seed-increment", "1280x720", false, 0.30}, Case{"seed-increment", "1280x720", true, 0.55},
          Case{"seed-matmul", "1280x720", false, 0.30}, Case{"seed-matmul", "1280x720", true, 0.29},
          Case{"seed-increment", "1600x900", false, 0.30}, Case{"seed-increment", "1600x900", true, 0.55},
          Case{"seed-matmul", "1600x900", false, 0.30}}) {
        CAPTURE(c.lesson);
        CAPTURE(c.size);
        CAPTURE(c.presentation);
        std::vector<std::string> args = {"--preset", c.lesson, "--window-size", c.size};
        if (c.presentation) args.push_back("--presentation");
        const WindowRun w = run_window(args, "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
        const json s = load_json(w.path("s.json"));
        CHECK(double(s["covered"]) >= c.at_least);
        CHECK(s["look_for_in_margin"] == true);  // beside or under the picture, not above it
        const ViewRect l{s["legend_rect"][0], s["legend_rect"][1], s["legend_rect"][2], s["legend_rect"][3]};
        const ViewRect p{s["picture_rect"][0], s["picture_rect"][1], s["picture_rect"][2], s["picture_rect"][3]};
        CHECK(l.w > 100);                               // a legend is there…
        CHECK((l.x >= p.x + p.w || l.y >= p.y + p.h));  // …right of the picture or under it, never over it
        const double window_h = std::stod(std::string(c.size).substr(5));
        CHECK(l.y + l.h <= window_h - 20);  // …and whole, above the status bar
    }
}

TEST_CASE("a window layout file that is a FIFO is refused with a message - the window opens and closes") {
    // ImGui would open the path itself and wait on the FIFO for ever.
    const std::string home = "/tmp/threadmap-fifo-ini-" + std::to_string(getpid());
    std::filesystem::create_directories(home + "/threadmap");
    REQUIRE(mkfifo((home + "/threadmap/imgui.ini").c_str(), 0600) == 0);
    const RunResult r = run_threadmap({"--quit-after-frames", "3"}, {"XDG_CONFIG_HOME=" + home}, x_server());
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("imgui.ini is not a regular file") != std::string::npos);
    // Written back atomically at exit: a plain file now, holding the layout.
    CHECK(std::filesystem::is_regular_file(home + "/threadmap/imgui.ini"));
    std::filesystem::remove_all(home);
}

#if THREADMAP_HAS_SOURCE
TEST_CASE("the kernel editor - edit the seed's matmul, swap x and y without the guard, then a syntax error") {
    const std::string unguarded =
        "__global__ void matmul(const float* A, const float* B, float* C, size_t rows, size_t cols, size_t inner, "
        "size_t b_cols) { size_t j = blockIdx.x * blockDim.x + threadIdx.x; size_t i = blockIdx.y * blockDim.y + "
        "threadIdx.y; float tmp = 0; for (size_t k = 0; k < inner; ++k) tmp += A[i * inner + k] * B[k * b_cols + j]; "
        "C[i * cols + j] = tmp; }";
    const WindowRun w = run_window({"--preset", "seed-matmul", "--window-size", "1600x1080"},
                                   // The Editor tab is drawn two frames after the click that selects it: a click
                                   // on its text needs its place from a frame that drew it. The unguarded run
                                   // takes 1.6 s alone: a time limit of 60 s keeps a loaded machine from
                                   // stopping it (its field is below the seven bindings: a taller window).
                                   "1 move 5 5\n2 wait idle\n3 click tab:Code\n6 click code:edit\n8 wait idle\n"
                                   "10 click editor:time-limit\n12 key ctrl+a\n13 type 60\n14 key enter\n"
                                   "16 wait idle\n17 state @/edit.json\n18 click editor:text\n19 key ctrl+a\n20 type " +
                                       unguarded +
                                       "\n21 key ctrl+enter\n23 wait idle\n24 state @/unguarded.json\n"
                                       "25 screenshot @/unguarded.png\n26 click editor:text\n27 key ctrl+a\n"
                                       "28 type __global__ void k(float* a) { a[0] = 1 }\n29 key ctrl+enter\n"
                                       "31 wait idle\n32 state @/error.json\n33 screenshot @/error.png\n34 quit\n");
    // "Edit this kernel": the matmul's CUDA text, bound as the lesson launches it, on the map.
    const json edit = load_json(w.path("edit.json"));
    CHECK(edit["editor"]["running"] == true);
    CHECK(edit["editor"]["messages"] == "");
    CHECK(edit["editor"]["binds"][0] == "float[300][200]:random");
    CHECK(edit["editor"]["binds"][6] == "300");  // b_cols, as the lesson's B has it
    CHECK(edit["kernel_seconds"] == 60);
    CHECK(edit["kernel"] == "matmul");
    CHECK(edit["findings"] == 0);
    // x indexing columns and no guard: the 512×512 threads past C's 200×200 are out of bounds.
    const json unguarded_state = load_json(w.path("unguarded.json"));
    CHECK(unguarded_state["editor"]["messages"] == "");
    CHECK(unguarded_state["launch_error"] == "");
    CHECK(unguarded_state["findings"].get<int>() > 0);
    // Drawn in rows under C's 200: j up to 511 and i up to 511 end at element 511 * 200 + 511.
    CHECK(unguarded_state["layout"]["height"] == 514);
    CHECK(unguarded_state["layout"]["past_cells"] == 511 * 200 + 511 + 1 - 200 * 200);
    CHECK(load_png(w.path("unguarded.png")).valid());
    // A syntax error: Clang's message and its line; the last good map stays.
    const json error = load_json(w.path("error.json"));
    CHECK(error["editor"]["error_line"] == 1);
    CHECK(error["editor"]["messages"].get<std::string>().find("kernel.cu:1:") != std::string::npos);
    CHECK(error["editor"]["messages"].get<std::string>().find("expected ';'") != std::string::npos);
    CHECK(error["kernel"] == "matmul");
    CHECK(error["findings"] == unguarded_state["findings"]);
}

TEST_CASE("the window opened with --source shows that file in the Editor, bound as the command line binds it") {
    const std::string cu = "/tmp/threadmap-gui-" + std::to_string(getpid()) + "-haxpy.cu";
    const std::string text =
        "#include <cuda_fp16.h>\n"
        "__global__ void haxpy(__half* y, const __half* x, __half a, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) y[i] = __hfma(a, x[i], y[i]);\n"
        "}\n";
    std::ofstream(cu) << text;
    // Only --source and its bindings: no --block (the window once opened the last lesson then).
    const WindowRun w = run_window({"--source", cu, "--bind", "y=half[100]:index", "--bind", "x=half[100]:ones",
                                    "--bind", "a=0.5", "--bind", "n=100"},
                                   "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
    std::filesystem::remove(cu);
    const json s = load_json(w.path("s.json"));
    CHECK(s["kernel"] == "haxpy");
    CHECK(s["array"] == "y");
    CHECK(s["editor"]["text"] == text);
    CHECK(s["editor"]["running"] == true);
    CHECK(s["editor"]["binds"] == json::array({"half[100]:index", "half[100]:ones", "0.5", "100"}));
    CHECK(s["editor"]["messages"] == "");
}

TEST_CASE("the kernel editor - a kernel that never ends is stopped at the time limit the learner set") {
    // While it spins, frames go on: frame 15 comes before the 2 s are up.
    const WindowRun w = run_window({},
                                   "1 move 5 5\n2 wait idle\n3 click tab:Editor\n6 click editor:time-limit\n"
                                   "7 key ctrl+a\n8 type 2\n9 key enter\n10 click editor:text\n11 key ctrl+a\n"
                                   "12 type __global__ void spin(float* a, int n) { while (a[0] == 0) { } }\n"
                                   "13 key ctrl+enter\n15 state @/during.json\n16 wait idle\n17 state @/spin.json\n"
                                   "18 quit\n");
    const json during = load_json(w.path("during.json"));
    CHECK((during["computing"] == true || during["compiling"] == true));  // work in flight, frames on
    CHECK(during["launch_error"] == "");
    const json s = load_json(w.path("spin.json"));
    CHECK(s["kernel_seconds"] == 2);
    CHECK(s["editor"]["messages"] == "");  // it compiled and bound: the run is what was stopped
    CHECK(s["launch_error"].get<std::string>().find("kernel spin ran past the time limit of 2 s") != std::string::npos);
}

TEST_CASE("the kernel editor - a pause in typing runs the text, also once the learner went to the map") {
    // No Ctrl+Enter: the Map tab is open the frame after the typing, and the text compiles after
    // the pause all the same (`wait idle` holds while it waits to: its error is then there).
    const WindowRun w = run_window({},
                                   "1 move 5 5\n2 wait idle\n3 click tab:Editor\n6 click editor:text\n7 key ctrl+a\n"
                                   "8 type __global__ void k(float* a) { a[0] = 1 }\n9 click tab:Map\n"
                                   "11 wait idle\n12 state @/paused.json\n13 quit\n");
    const json s = load_json(w.path("paused.json"));
    CHECK(s["editor"]["text"] == "__global__ void k(float* a) { a[0] = 1 }");
    CHECK(s["editor"]["messages"].get<std::string>().find("expected ';'") != std::string::npos);
}

TEST_CASE("the kernel editor - what a kernel prints with printf is shown under its bindings") {
    const WindowRun w =
        run_window({},
                   "1 move 5 5\n2 wait idle\n3 click tab:Editor\n6 click editor:text\n7 key ctrl+a\n"
                   "8 type __global__ void hi(float* a, int n) { if (blockIdx.x == 0 && threadIdx.x < 2) "
                   "printf(\"hi from %d\\n\", threadIdx.x); }\n"
                   "9 key ctrl+enter\n11 wait idle\n12 wait idle\n13 state @/hi.json\n"
                   "14 screenshot @/hi.png\n15 quit\n");
    const json s = load_json(w.path("hi.json"));
    CHECK(s["editor"]["messages"] == "");
    CHECK(s["editor"]["printed"] == "hi from 0\nhi from 1\n");
    CHECK(s["widgets"].contains("editor:printed"));
    CHECK(load_png(w.path("hi.png")).valid());
}

TEST_CASE("the kernel editor - a __constant__ variable has a field under the parameters, filled as the host would") {
    const WindowRun w = run_window(
        {},
        "1 move 5 5\n2 wait idle\n3 click tab:Editor\n6 click editor:text\n7 key ctrl+a\n"
        "8 type __constant__ float w[2]; __global__ void k(float* a) { if (blockIdx.x == 0 && threadIdx.x == 0) "
        "printf(\"%g %g\\n\", "
        "w[0], w[1]); a[threadIdx.x] = w[1]; }\n"
        "9 key ctrl+enter\n11 wait idle\n12 wait idle\n"
        "13 move editor:bind:a\n14 click editor:bind:a\n15 key ctrl+a\n16 type [4]\n"
        "17 move editor:bind:w\n18 click editor:bind:w\n19 key ctrl+a\n20 type [2]:0.25,0.5\n"
        "21 key ctrl+enter\n23 wait idle\n24 wait idle\n25 state @/constant.json\n26 screenshot @/constant.png\n"
        "27 quit\n");
    const json s = load_json(w.path("constant.json"));
    CHECK(s["widgets"].contains("editor:bind:w"));
    CHECK(s["editor"]["messages"] == "");
    CHECK(s["editor"]["printed"] == "0.25 0.5\n");
    CHECK(load_png(w.path("constant.png")).valid());
}

TEST_CASE("where does it break - the Findings tab's button runs the kernel on awkward launches") {
    const WindowRun w =
        run_window({"--preset", "off-by-one-guard"},
                   "1 move 5 5\n2 wait idle\n3 click tab:Findings\n5 click findings:sweep\n8 wait idle\n"
                   "10 state @/sweep.json\n11 screenshot @/sweep.png\n12 quit\n");
    const json s = load_json(w.path("sweep.json"));
    REQUIRE(s.contains("launch_sweep"));
    // Against the lesson's expected result: its own launch first, then nine awkward launches
    // less two equal to it (the covering grid of blocks of 32).
    CHECK(s["launch_sweep"]["expected"] == true);
    CHECK(s["launch_sweep"]["launches"] == 8);
    const auto differ = s["launch_sweep"]["differ"].get<std::vector<std::string>>();
    const auto differs = [&](const char* why) { return std::find(differ.begin(), differ.end(), why) != differ.end(); };
    CHECK(differs("your launch"));  // the right values, and 3 out-of-bounds accesses
    // One block of 32 threads covers 32 of the 100 elements: the rest keep y's ones.
    CHECK(differs("a single block"));
    // 100 threads for 100 elements: no thread past the end, every value right.
    CHECK_FALSE(differs("a block that does not divide the data"));
    CHECK(load_png(w.path("sweep.png")).valid());
}

TEST_CASE("where does it break - a lesson's own kernel without an expected result takes the learner's") {
    // half-precision gives none: the field is offered, and what is typed is compared with.
    const std::string expect = "for (int i = 0; i < n; ++i) out[i] = __hmul(in[i], __float2half(0.1f));";
    const WindowRun w =
        run_window({"--preset", "half-precision"},
                   "1 move 5 5\n2 wait idle\n3 click tab:Findings\n5 click findings:expect\n6 type " + expect +
                       "\n8 click findings:sweep\n10 wait idle\n12 state @/sweep.json\n13 quit\n");
    const json s = load_json(w.path("sweep.json"));
    CHECK(s["launch_sweep_expect"] == expect);
    REQUIRE(s.contains("launch_sweep"));
    CHECK(s["launch_sweep"]["expected"] == true);
    const auto differ = s["launch_sweep"]["differ"].get<std::vector<std::string>>();
    const auto differs = [&](const char* why) { return std::find(differ.begin(), differ.end(), why) != differ.end(); };
    CHECK_FALSE(differs("your launch"));                            // every out[i] as the statement computes it
    CHECK(differs("a single block"));                               // no grid-stride loop: 128 of 2048 written
    CHECK_FALSE(differs("a block that does not divide the data"));  // the guard covers it
}

TEST_CASE("the kernel editor - Compile for a GPU too: NVRTC's verdict beside Run, a syntax error its own message") {
    const WindowRun w = run_window({},
                                   // The lesson card takes the "Look for" a frame after the Editor opens
                                   // (the legend beside the narrower map would cover it): the clicks after.
                                   "1 move 5 5\n2 wait idle\n3 click tab:Editor\n8 click editor:gpu-compile\n"
                                   "11 wait idle\n12 state @/good.json\n13 screenshot @/gpu.png\n"
                                   "14 click editor:text\n15 key ctrl+a\n"
                                   "16 type __global__ void k(float* a) { a[0] = 1 }\n18 click editor:gpu-compile\n"
                                   "21 wait idle\n22 state @/bad.json\n23 quit\n");
    const json good = load_json(w.path("good.json"))["editor"];
    REQUIRE(good.contains("gpu"));
    if (!good["gpu"]["available"].get<bool>()) {
        MESSAGE("skipped: NVRTC is not on this machine");
        return;
    }
    CHECK(good["gpu"]["compiled"] == true);  // the seed's increment_by_one, the editor's first text
    CHECK(good["gpu"]["milliseconds"].get<double>() > 0);
    const json bad = load_json(w.path("bad.json"))["editor"];
    CHECK(bad["gpu"]["compiled"] == false);
    CHECK(bad["gpu"]["log"].get<std::string>().find("kernel.cu(1): error: expected a \";\"") != std::string::npos);
    CHECK(load_png(w.path("gpu.png")).valid());
}
#endif

TEST_CASE("the editor beside the map - a hatched cell lights the line that wrote it, the line outlines its cells") {
    // A matmul whose grid overshoots C and has no guard: its stores past C's end are line 7's.
    const std::string cu = "/tmp/threadmap-gui-" + std::to_string(getpid()) + "-beside.cu";
    std::ofstream(cu) << "__global__ void matmul(const float* A, const float* B, float* C, int n) {\n"
                         "    int i = blockIdx.y * blockDim.y + threadIdx.y;\n"
                         "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    float tmp = 0;\n"
                         "    for (int k = 0; k < n; ++k)\n"
                         "        tmp += A[i * n + k] * B[k * n + j];\n"
                         "    C[i * n + j] = tmp;\n"
                         "}\n";
    const WindowRun w =
        run_window({"--source", cu, "--bind", "A=float[20][20]", "--bind", "B=float[20][20]", "--bind",
                    "C=float[16][16]", "--bind", "n=20", "--block", "8,8", "--grid", "3,3"},
                   "1 move 5 5\n2 wait idle\n3 click tab:Editor\n5 wait idle\n6 move cell 0 16\n8 state @/cell.json\n"
                   "9 move editor:line:7\n11 state @/line.json\n12 screenshot @/line.png\n13 quit\n");
    std::filesystem::remove(cu);
    const json cell = load_json(w.path("cell.json"));
    // Both live in the Editor tab: the map beside the text, as wide as it.
    const double text_w = cell["widgets"]["editor:text"][2];
    CHECK(double(cell["map_rect"][2]) > text_w * 0.8);
    CHECK(double(cell["map_rect"][0]) > double(cell["widgets"]["editor:text"][0]) + text_w);
    // The first cell under C (element 256, past its end): written by line 7, lit in the editor.
    REQUIRE(cell["editor"].contains("lines_of_cell"));
    CHECK(cell["editor"]["lines_of_cell"] == json::array({7}));
    // The mouse on line 7: the map outlines the cells of its findings, every one past C.
    const json line = load_json(w.path("line.json"));
    CHECK(line["editor"]["hovered_line"] == 7);
    CHECK(line["editor"]["cells_of_line"].get<int>() > 16);
    const PngImage img = load_png(w.path("line.png"));
    REQUIRE(img.valid());
    int outline = 0;  // the outline's colour, on the map's side of the window
    for (int y = 0; y < img.height; ++y)
        for (int x = int(cell["map_rect"][0]); x < img.width * 3 / 4; ++x)
            outline += img.at(x, y) == std::array<uint8_t, 3>{80, 200, 255};
    CHECK(outline > 200);
}

TEST_CASE(
    "the Editor in a lesson on its own kernel at 1280x720 - the lesson's point leaves the map uncovered, and "
    "one button opens the map's kernel in the editor") {
    const WindowRun w = run_window({"--preset", "warp-shuffle-sum", "--window-size", "1280x720"},
                                   "1 move 5 5\n2 wait idle\n3 move tab:Editor\n4 click tab:Editor\n6 wait idle\n"
                                   "7 state @/before.json\n8 move editor:open-map-kernel\n"
                                   "9 click editor:open-map-kernel\n11 wait idle\n13 wait idle\n14 state @/after.json\n"
                                   "15 quit\n");
    const json before = load_json(w.path("before.json"));
    // The legend is in the map's margin, not over its cells: the "Look for" paragraph went to the card.
    const auto rect = [](const json& r) { return ViewRect{r[0], r[1], r[2], r[3]}; };
    const ViewRect map = rect(before["map_rect"]), legend = rect(before["legend_rect"]);
    CHECK(legend.w > 0);
    CHECK_FALSE(overlaps(map, legend));
    CHECK_FALSE(bool(before["look_for_in_margin"]));
    // The editor holds the learner's template, and says that the map shows another kernel.
    CHECK(std::string(before["editor"]["text"]).find("increment_by_one") != std::string::npos);
    REQUIRE(before["widgets"].contains("editor:open-map-kernel"));
    // The button: the lesson's kernel in the editor, run, and on the map.
    const json after = load_json(w.path("after.json"));
    CHECK(std::string(after["editor"]["text"]).find("__shfl_down_sync") != std::string::npos);
    CHECK(bool(after["editor"]["running"]));
    CHECK_FALSE(after["widgets"].contains("editor:open-map-kernel"));
}

TEST_CASE("a session round trip - Save session writes what is on screen, threadmap FILE and render --session open it") {
    // The race lesson as it opens, saved into a folder typed in the Display panel.
    const WindowRun w = run_window({"--preset", "race-2d-block"},
                                   "1 move 5 5\n2 wait idle\n3 click folder\n4 key ctrl+a\n5 type @/\n6 key enter\n"
                                   "8 click save-session\n10 state @/saved.json\n11 quit\n");
    std::string file;
    for (const auto& entry : std::filesystem::directory_iterator(w.dir))
        if (entry.path().extension() == ".threadmap") file = entry.path();
    const std::string where = "no .threadmap file in " + w.dir;
    REQUIRE_MESSAGE(!file.empty(), where);
    CHECK(load_json(w.path("saved.json"))["message"].get<std::string>().find(file) != std::string::npos);
    const json session = load_json(file);
    CHECK(session["launch"]["preset"] == "race-2d-block");
    CHECK(session["view"]["color"] == "findings");
    // render --session draws exactly what render --preset draws of the same lesson.
    const std::string a = w.path("session.png"), b = w.path("preset.png");
    CHECK(run_threadmap({"render", "--session", file, "--out", a, "--size", "480x270"}).exit_code == 0);
    CHECK(run_threadmap({"render", "--preset", "race-2d-block", "--out", b, "--size", "480x270"}).exit_code == 0);
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    const std::string pa((std::istreambuf_iterator<char>(fa)), {}), pb((std::istreambuf_iterator<char>(fb)), {});
    CHECK_FALSE(pa.empty());
    CHECK(pa == pb);
    // threadmap FILE opens it: the lesson's launch, in its colour.
    const WindowRun opened = run_window({file}, "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
    const json s = load_json(opened.path("s.json"));
    CHECK(s["kernel"] == "increment");
    CHECK(s["launch"]["block"] == json::array({32, 2, 1}));
    CHECK(s["color_mode"] == "findings");
    CHECK(s["findings"] == 1000);
}

TEST_CASE(
    "a dropped session file opens a learner's kernel in the Editor - a bad one is a message and changes nothing") {
    const std::string dir = "/tmp/threadmap-session-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const json good = {
        {"threadmap_session", 1},
        {"launch",
         {{"source_text",
           "__global__ void fill(int* a, int n) {\n    int i = threadIdx.x;\n    if (i < n) a[i] = i;\n}\n"},
          {"binds", {"a=int[64]", "n=64"}},
          {"block", {64}},
          {"grid", "1"}}},
        {"view", {{"color", "thread-x"}, {"tab", "editor"}}}};
    std::ofstream(dir + "/good.threadmap") << good.dump();
    std::ofstream(dir + "/bad.threadmap") << R"({"threadmap_session":1,"launch":{"kernel":"increment","blokc":"32"}})";
    const WindowRun w = run_window({"--preset", "seed-increment"}, "1 move 5 5\n2 wait idle\n3 drop " + dir +
                                                                       "/bad.threadmap\n5 wait idle\n"
                                                                       "6 state @/bad.json\n7 drop " +
                                                                       dir +
                                                                       "/good.threadmap\n9 wait idle\n"
                                                                       "10 state @/good.json\n11 quit\n");
    const json bad = load_json(w.path("bad.json"));
    CHECK(bad["message"] == dir + "/bad.threadmap: launch.blokc: not a field of a session's launch");
    CHECK(bad["kernel"] == "increment");
    CHECK(bad["launch"]["grid"] == json::array({16, 1, 1}));
    const json s = load_json(w.path("good.json"));
    CHECK(s["kernel"] == "fill");
    CHECK(s["editor"]["running"] == true);
    CHECK(s["editor"]["binds"] == json::array({"int[64]", "64"}));
    CHECK(s["launch"]["block"] == json::array({64, 1, 1}));
    CHECK(s["color_mode"] == "thread-x");
    // The command line says the same of a bad file, and exits 2.
    const RunResult window = run_threadmap({dir + "/bad.threadmap"});
    CHECK(window.exit_code == 2);
    CHECK(window.err.find("launch.blokc: not a field") != std::string::npos);
    const RunResult render =
        run_threadmap({"render", "--session", dir + "/missing.threadmap", "--out", dir + "/x.png"});
    CHECK(render.exit_code == 2);
    CHECK(render.err.find("missing.threadmap") != std::string::npos);
    const RunResult mixed =
        run_threadmap({"render", "--session", dir + "/good.threadmap", "--block", "32", "--out", dir + "/x.png"});
    CHECK(mixed.exit_code == 2);
    CHECK(mixed.err.find("no other launch options") != std::string::npos);
    // A launch field with a value no launch takes: the file is named with the problem.
    std::ofstream(dir + "/negative.threadmap") << R"({"threadmap_session":1,"launch":{"kernel":"increment","n":"-5"}})";
    const RunResult negative =
        run_threadmap({"render", "--session", dir + "/negative.threadmap", "--out", dir + "/x.png"});
    CHECK(negative.exit_code == 2);
    CHECK(negative.err.find("negative.threadmap: its launch: --n expects a whole number") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE(
    "cell indices: every element numbered at one size, none under a block's number - or none where they do not fit") {
    // The labels over cells from a replay's state: the array's name, the blocks' numbers and the
    // cells' indices, each a rectangle on screen.
    const auto labels = [](const json& s) {
        std::vector<ViewRect> out;
        for (const auto& l : s["labels_over_cells"]) out.push_back({l[0], l[1], l[2], l[3]});
        return out;
    };
    // The first lesson in presentation mode at 1280x720: cells of 31 pixels, indices up to 499.
    const WindowRun w = run_window({"--preset", "seed-increment", "--presentation", "--window-size", "1280x720"},
                                   "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
    const std::vector<ViewRect> all = labels(load_json(w.path("s.json")));
    // 500 indices and 16 blocks' "block N", less the indices those cover (two cells each at most).
    CHECK(all.size() >= 500 - 2 * 16 + 16);
    std::map<int, int> heights;  // one text size: the indices share a height
    for (const ViewRect& l : all) ++heights[int(std::lround(l.h))];
    CHECK(std::max_element(heights.begin(), heights.end(), [](auto a, auto b) {
              return a.second < b.second;
          })->second >= 500 - 2 * 16);
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t j = i + 1; j < all.size(); ++j) {
            CAPTURE(i);
            CAPTURE(j);
            CHECK_FALSE(overlaps(all[i], all[j]));
        }
    // Each block's first element is numbered (0, 32, 64…: blockIdx.x·blockDim.x), its number
    // inside its cell: the block's "block N" goes to the row's end.
    const json s = load_json(w.path("s.json"));
    for (int block = 0; block < 16; ++block) {
        CAPTURE(block);
        const glm::dvec2 a = world_to_screen(state_view(s), state_map_rect(s), {0, block});
        const glm::dvec2 b = world_to_screen(state_view(s), state_map_rect(s), {1, block + 1});
        CHECK(std::any_of(all.begin(), all.end(), [&](const ViewRect& l) {
            return l.x >= a.x && l.y >= a.y && l.x + l.w <= b.x && l.y + l.h <= b.y;
        }));
    }
    // tiled-matmul's 16x16 tiles at 1280x720: cells of 26 pixels cannot hold "15,15" at a
    // readable size, so no cell is numbered rather than the narrow ones alone.
    const WindowRun tiles = run_window({"--preset", "tiled-matmul", "--presentation", "--window-size", "1280x720"},
                                       "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
    CHECK(labels(load_json(tiles.path("s.json"))).size() <= 4);  // the tiles' names only
}

TEST_CASE("the coalescing lesson at 1280x720 - C's last rows, the warps with 8 active lanes, are under no label") {
    // C is 200x200 in blocks of 32 rows: the last row of blocks holds its rows 192-199, the map's
    // point (fewer active lanes, fewer sectors). Each of those blocks' numbers covered them.
    const WindowRun w = run_window({"--preset", "coalescing", "--window-size", "1280x720"},
                                   "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
    const json s = load_json(w.path("s.json"));
    const glm::dvec2 top_left = world_to_screen(state_view(s), state_map_rect(s), {0, 192});
    const glm::dvec2 bottom_right = world_to_screen(state_view(s), state_map_rect(s), {200, 200});
    const ViewRect last_rows{top_left.x, top_left.y, bottom_right.x - top_left.x, bottom_right.y - top_left.y};
    REQUIRE(last_rows.w > 100);
    REQUIRE(last_rows.h > 4);
    REQUIRE(s["labels_over_cells"].size() >= 36);  // the other blocks keep their numbers
    for (const auto& l : s["labels_over_cells"]) {
        CAPTURE(l);
        CHECK_FALSE(overlaps(ViewRect{l[0], l[1], l[2], l[3]}, last_rows));
    }
}

TEST_CASE("grid-vs-block-dim at 1280x720 - all 90 blocks are numbered, the first two beside C's name") {
    // "C 40×72" over the first cells left (0,0) and (1,0) without their numbers.
    const WindowRun w = run_window({"--preset", "grid-vs-block-dim", "--window-size", "1280x720"},
                                   "1 move 5 5\n2 wait idle\n3 state @/s.json\n4 quit\n");
    const json s = load_json(w.path("s.json"));
    CHECK(s["labels_over_cells"].size() == 90 + 1);  // and C's name
}

TEST_CASE("at UI scale 1.5 on a projector, the blockIdx legend lists fewer colours and stays beside the picture") {
    // Its ten swatches made it taller than the map's area: it went over the right third of C.
    const WindowRun w = run_window({"--preset", "grid-vs-block-dim", "--window-size", "1280x720"},
                                   "1 move 5 5\n2 wait idle\n3 key ctrl+equal\n5 key ctrl+equal\n7 key ctrl+equal\n"
                                   "9 wait idle\n12 wait idle\n14 state @/s.json\n15 quit\n");
    const json s = load_json(w.path("s.json"));
    REQUIRE(s["ui_scale"].get<double>() > 1.4);
    const auto rect = [](const json& r) { return ViewRect{r[0], r[1], r[2], r[3]}; };
    const ViewRect map = rect(s["map_rect"]), legend = rect(s["legend_rect"]);
    CHECK(legend.w > 0);
    CHECK_FALSE(overlaps(map, legend));
    CHECK(legend.y + legend.h <= map.y + map.h + 1);
}

TEST_CASE("the Memory tab at 1280x720 - its figure first, every column of its table on screen") {
    const WindowRun w = run_window({"--preset", "transpose-bank-conflicts", "--window-size", "1280x720"},
                                   "1 move 5 5\n2 wait idle\n3 click tab:Memory\n5 wait idle\n6 move 5 5\n"
                                   "8 state @/s.json\n9 quit\n");
    const json s = load_json(w.path("s.json"));
    const auto& widgets = s["widgets"];
    REQUIRE(widgets.contains("memory-lead"));
    REQUIRE(widgets.contains("memory:table"));  // the last column's header
    CHECK(double(widgets["memory-lead"][1]) < double(widgets["memory:table"][1]));
    // The last column ends inside the centre, left of the Inspector's column.
    const double lanes_right = double(widgets["memory:table"][0]) + double(widgets["memory:table"][2]);
    CHECK(lanes_right <= double(widgets["go-to-element"][0]));
}

TEST_CASE(
    "the bank-conflict lesson draws the padded tile beside its tile - 32-way against none, in the colorizer's "
    "colours") {
    const char* name = "transpose-bank-conflicts";
    const WindowRun w =
        run_window({"--preset", name}, "1 move 5 5\n2 wait idle\n4 state @/s.json\n4 screenshot @/w.png\n5 quit\n");
    const PngImage img = load_png(w.path("w.png"));
    REQUIRE(img.valid());
    const json s = load_json(w.path("s.json"));
    REQUIRE(s.contains("compare"));
    CHECK(s["kernel"] == "transpose-tiled");
    CHECK(s["compare"]["kernel"] == "transpose-tiled-padded");
    CHECK(s["memory"]["totals"]["shared_load"]["conflict_ways_max"] == 32);
    CHECK(s["compare"]["memory"]["totals"]["shared_load"]["conflict_ways_max"] == 1);
    // Side by side, the same height: the comparison right of the map and its legend.
    const ViewRect r = state_map_rect(s);
    json beside = s;
    beside["map_rect"] = s["compare"]["map_rect"];
    beside["view"] = s["compare"]["view"];
    const ViewRect c = state_map_rect(beside);
    CHECK(c.x >= r.x + r.w);
    CHECK(c.y == r.y);
    CHECK(c.h == r.h);
    // Both pictures' pixels are the colorizer's colours for their cells.
    CHECK(check_map_pixels(img, s, expected_picture(preset(name), s)).mismatches == 0);
    auto launch = resolve_launch(preset(name));
    REQUIRE(launch.value);
    REQUIRE(apply_lesson_view(*launch.value, *find_lesson(name)).done());
    PictureOptions po;
    po.mode = ColorMode::Banks;
    po.compare = lesson_comparison(*launch.value);
    auto built = build_picture(*launch.value, po);
    REQUIRE(built.value);
    REQUIRE(built.value->compare);
    CHECK(built.value->compare->layout.width == 33);  // the padding column
    const PixelCheck padded = check_map_pixels(img, beside, *built.value->compare);
    CHECK(padded.elements > 100);
    CHECK(padded.mismatches == 0);
}
