// `threadmap render` with no display: every colour mode, the same pixels twice, bad input.
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <set>

#include "tests/png_image.hpp"
#include "tests/run_binary.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "viz/color/colorizer.hpp"
#include "viz/draw/legend.hpp"

using namespace threadmap;

namespace {

// No display. In the sanitizer build, no leak check in the child: Mesa keeps small caches for
// the process (reported as leaks with stacks that stop inside it); the drawing code's own
// leaks are checked in-process by tests/viz/test_offscreen_drawing.cpp.
const std::vector<std::string> kNoDisplay = {"-u DISPLAY", "-u WAYLAND_DISPLAY", "ASAN_OPTIONS=detect_leaks=0"};

std::string temp_png(const std::string& name) {
    return "/tmp/threadmap-render-" + std::to_string(getpid()) + "-" + name + ".png";
}

std::set<std::array<uint8_t, 3>> colours(const PngImage& img) {
    std::set<std::array<uint8_t, 3>> s;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) s.insert(img.at(x, y));
    return s;
}

std::array<uint8_t, 3> rgb(Rgba8 c) { return {c.r, c.g, c.b}; }

// The colours of `render ARGS… EXTRA… --out OUT`, which must succeed.
std::set<std::array<uint8_t, 3>> render_colours(std::vector<std::string> args, const std::vector<std::string>& extra,
                                                const std::string& out) {
    args.insert(args.begin(), "render");
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--out", out});
    const RunResult r = run_threadmap(args, kNoDisplay);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return colours(load_png(out));
}

}  // namespace

TEST_CASE("every colour mode renders with DISPLAY unset - and the same arguments give the same pixels") {
    for (ColorMode m : all_color_modes()) {
        const std::string mode(color_mode_name(m));
        CAPTURE(mode);
        const std::string a = temp_png(mode + "-a"), b = temp_png(mode + "-b");
        std::vector<std::string> args = {"render", "--preset", "seed-increment-bug", "--color", mode,
                                         "--size", "800x600"};
        if (m == ColorMode::Sm || m == ColorMode::Wave) args.insert(args.end(), {"--device-profile", "laptop-gpu"});
        auto with_out = [&](const std::string& out) {
            auto v = args;
            v.push_back("--out");
            v.push_back(out);
            return v;
        };
        const RunResult r1 = run_threadmap(with_out(a), kNoDisplay);
        REQUIRE_MESSAGE(r1.exit_code == 0, r1.err);
        const RunResult r2 = run_threadmap(with_out(b), kNoDisplay);
        REQUIRE(r2.exit_code == 0);
        const PngImage img = load_png(a);
        REQUIRE(img.valid());
        CHECK(img.width == 800);
        CHECK(img.height == 600);
        CHECK(file_bytes(a) == file_bytes(b));
        CHECK(colours(img).size() > 8);  // map, legend and text: not a blank frame
        std::remove(a.c_str());
        std::remove(b.c_str());
    }
}

TEST_CASE("the rendered map shows the colorizer's block colours - and the legend can be left out") {
    const std::string with = temp_png("legend"), without = temp_png("nolegend");
    REQUIRE(run_threadmap({"render", "--preset", "seed-increment", "--out", with, "--size", "1280x720"}, kNoDisplay)
                .exit_code == 0);
    REQUIRE(
        run_threadmap({"render", "--preset", "seed-increment", "--out", without, "--size", "1280x720", "--no-legend"},
                      kNoDisplay)
            .exit_code == 0);
    const auto c = colours(load_png(with));
    for (uint32_t b = 0; b < 10; ++b) {
        const Rgba8 expect = colorize({CellSample::Element, 1, {b, 0, 0}, {0, 0, 0}},
                                      {ColorMode::Block, Palette::Standard, {16, 1, 1}, {32, 1, 1}});
        CHECK(c.count(rgb(expect)) == 1);
    }
    CHECK(file_bytes(with) != file_bytes(without));
    std::remove(with.c_str());
    std::remove(without.c_str());
}

TEST_CASE("render --color sm deals blocks to the profile's SMs in blockIdx order - wave colours the waves") {
    // increment, 8 registers on 8.6: 16 blocks of 32 threads per SM (the block limit), 16 SMs:
    // 256 slots; 512 blocks take two waves, block b on SM b % 16.
    const std::string sm = temp_png("sm"), wave = temp_png("wave");
    for (const auto& [mode, out] : {std::pair{"sm", sm}, std::pair{"wave", wave}})
        REQUIRE(run_threadmap({"render", "--kernel", "increment", "--n", "16384", "--block", "32", "--color", mode,
                               "--device-profile", "laptop-gpu", "--out", out, "--size", "1280x720"},
                              kNoDisplay)
                    .exit_code == 0);
    const ColorContext at{ColorMode::Sm, Palette::Standard, {512, 1, 1}, {32, 1, 1}, 256, 16};
    const auto sms = colours(load_png(sm));
    for (uint32_t b : {0u, 1u, 9u}) {  // SM 0, 1 and 9: palette colours 0, 1 and 9
        CHECK(colorize({CellSample::Element, 1, {b, 0, 0}, {}}, at) == categorical(b, Palette::Standard));
        CHECK(sms.count(rgb(categorical(b, Palette::Standard))) == 1);
    }
    ColorContext by_wave = at;
    by_wave.mode = ColorMode::Wave;
    const auto waves = colours(load_png(wave));
    CHECK(waves.count(rgb(colorize({CellSample::Element, 1, {0, 0, 0}, {}}, by_wave))) == 1);    // wave 1
    CHECK(waves.count(rgb(colorize({CellSample::Element, 1, {300, 0, 0}, {}}, by_wave))) == 1);  // wave 2
    CHECK(colorize({CellSample::Element, 1, {300, 0, 0}, {}}, by_wave) == ramp(1.0f));
    // Without a GPU to place blocks on (none here, no profile) it says so and exits 2.
    const RunResult none =
        run_threadmap({"render", "--preset", "seed-increment", "--color", "sm", "--out", sm}, kNoDisplay);
    CHECK(none.exit_code == 2);
    CHECK(none.err.find("--device-profile") != std::string::npos);
    CHECK(none.err.find("--cc") == std::string::npos);  // an option of occupancy's, not render's
    std::remove(sm.c_str());
    std::remove(wave.c_str());
}

TEST_CASE("render --color sectors shows the tutorial's 32-sector stores and the fix's 4 - lanes the partial warps") {
    // x → row: rows 0–191 of C are stored by full warps, one sector per lane (32); rows
    // 192–199 by warps of 8 lanes (8 sectors). x → column: 4 sectors per full warp, 1 for the
    // 8-lane ones (columns 192–199).
    const std::string rows = temp_png("sectors-rows"), cols = temp_png("sectors-cols"), lanes = temp_png("lanes");
    // No legend: its ramp holds every colour of the scale.
    const auto render = [](const std::vector<std::string>& extra, const std::string& out) {
        return render_colours({"--preset", "seed-matmul", "--size", "1280x720", "--no-legend"}, extra, out);
    };
    const ColorContext sectors{ColorMode::Sectors, Palette::Standard, {16, 16, 1}, {32, 32, 1}};
    const auto cost = [](uint8_t c) { return CellSample{CellSample::Element, 1, {}, {}, c}; };
    const auto by_rows = render({"--color", "sectors"}, rows);
    CHECK(by_rows.count(rgb(colorize(cost(32), sectors))) == 1);
    CHECK(by_rows.count(rgb(colorize(cost(8), sectors))) == 1);
    CHECK(by_rows.count(rgb(colorize(cost(4), sectors))) == 0);
    const auto by_cols = render({"--kernel", "matmul-xcol", "--color", "sectors"}, cols);
    CHECK(by_cols.count(rgb(colorize(cost(4), sectors))) == 1);
    CHECK(by_cols.count(rgb(colorize(cost(1), sectors))) == 1);
    CHECK(by_cols.count(rgb(colorize(cost(32), sectors))) == 0);
    ColorContext by_lanes = sectors;
    by_lanes.mode = ColorMode::Lanes;
    const auto lane_colours = render({"--color", "lanes"}, lanes);
    CHECK(lane_colours.count(rgb(colorize(cost(32), by_lanes))) == 1);
    CHECK(lane_colours.count(rgb(colorize(cost(8), by_lanes))) == 1);
    // A read map colours by loads: x → row, a warp loads one element of A from each of 32
    // rows (32 sectors); x → column, all its lanes load one element (a broadcast: 1 sector).
    const auto loads_rows = render({"--array", "A", "--access", "read", "--color", "sectors"}, rows);
    CHECK(loads_rows.count(rgb(colorize(cost(32), sectors))) == 1);
    const auto loads_cols =
        render({"--kernel", "matmul-xcol", "--array", "A", "--access", "read", "--color", "sectors"}, cols);
    CHECK(loads_cols.count(rgb(colorize(cost(1), sectors))) == 1);
    CHECK(loads_cols.count(rgb(colorize(cost(32), sectors))) == 0);
    for (const std::string& f : {rows, cols, lanes}) std::remove(f.c_str());
}

TEST_CASE("render --color findings checks launches too large for the window's budget - as threadmap check does") {
    // 2^20 elements (the window checks up to 2^19) written by a 2D block: its two rows of
    // threads race on every element. The window would paint them grey, "not checked".
    const std::string out = temp_png("findings-large");
    const auto found = render_colours({"--kernel", "increment", "--n", "1048576", "--block", "32,2", "--color",
                                       "findings", "--size", "1280x720", "--no-legend"},
                                      {}, out);
    ColorContext findings{ColorMode::Findings, Palette::Standard, {32768, 1, 1}, {32, 2, 1}};
    findings.findings_checked = true;
    CHECK(found.count(rgb(colorize(CellSample{CellSample::Element, 1, {}, {}, kFoundRace}, findings))) == 1);
    CHECK(found.count(rgb(from_hex(0x6B6B6B))) == 0);  // nothing left grey
    std::remove(out.c_str());
}

TEST_CASE("render --color banks shows a shared tile's 32-way column reads - none padded - and a global array none") {
    const std::string plain = temp_png("banks-plain"), padded = temp_png("banks-padded"),
                      global = temp_png("banks-global");
    const auto render = [](const std::string& kernel, const std::vector<std::string>& extra, const std::string& out) {
        return render_colours({"--kernel", kernel, "--rows", "200", "--cols", "300", "--color", "banks", "--size",
                               "1280x720", "--no-legend"},
                              extra, out);
    };
    const ColorContext banks{ColorMode::Banks, Palette::Standard, {10, 7, 1}, {32, 32, 1}};
    const auto ways = [&](uint8_t c) { return rgb(colorize(CellSample{CellSample::Element, 1, {}, {}, c}, banks)); };
    const std::vector<std::string> tile_reads = {"--array", "tile", "--access", "read", "--shared-block", "1,1"};
    const auto conflicted = render("transpose-tiled", tile_reads, plain);
    CHECK(conflicted.count(ways(32)) == 1);
    CHECK(conflicted.count(ways(1)) == 0);
    const auto clean = render("transpose-tiled-padded", tile_reads, padded);
    CHECK(clean.count(ways(1)) == 1);
    CHECK(clean.count(ways(32)) == 0);
    // The tile is written along its rows: one way. A global array has no banks: left dark.
    const auto stores = render("transpose-tiled", {"--array", "tile", "--shared-block", "1,1"}, plain);
    CHECK(stores.count(ways(1)) == 1);
    CHECK(stores.count(ways(32)) == 0);
    const auto out = render("transpose-tiled", {}, global);
    CHECK(out.count(ways(1)) == 0);
    CHECK(out.count(ways(0)) == 1);
    for (const std::string& f : {plain, padded, global}) std::remove(f.c_str());
}

TEST_CASE("render --preset of the bank-conflict lesson draws the padded tile at the right - 32-way left, none right") {
    const std::string out = temp_png("beside");
    const RunResult r = run_threadmap(
        {"render", "--preset", "transpose-bank-conflicts", "--size", "1280x720", "--no-legend", "--out", out},
        kNoDisplay);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const ColorContext banks{ColorMode::Banks, Palette::Standard, {10, 7, 1}, {32, 32, 1}};
    const auto ways = [&](uint8_t c) { return rgb(colorize(CellSample{CellSample::Element, 1, {}, {}, c}, banks)); };
    const PngImage img = load_png(out);
    REQUIRE(img.valid());
    int left_32 = 0, right_32 = 0, left_1 = 0, right_1 = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const bool left = x < img.width / 2;
            if (img.at(x, y) == ways(32)) ++(left ? left_32 : right_32);
            if (img.at(x, y) == ways(1)) ++(left ? left_1 : right_1);
        }
    CHECK(left_32 > 10000);
    CHECK(right_32 == 0);
    CHECK(right_1 > 10000);
    CHECK(left_1 == 0);
    std::remove(out.c_str());
}

TEST_CASE("render - bad arguments exit 2 and unwritable paths 1, with a message") {
    const std::string out = temp_png("bad");
    const std::vector<std::vector<std::string>> bad = {
        {"render", "--preset", "seed-increment", "--out", out, "--color", "rainbow"},
        {"render", "--preset", "seed-increment", "--out", out, "--size", "10x10"},
        {"render", "--preset", "seed-increment", "--out", out, "--size", "wide"},
        {"render", "--preset", "seed-increment", "--out", out, "--size", "99999x99999"},
        {"render", "--preset", "seed-increment", "--out", out, "--blocks-per-row", "0"},
        {"render", "--preset", "seed-increment", "--out", out, "--palette", "neon"},
        {"render", "--preset", "seed-increment"},
        {"render", "--kernel", "increment", "--n", "100", "--block", "2048", "--out", out},
    };
    for (const auto& args : bad) {
        CAPTURE(args.back());
        const RunResult r = run_threadmap(args, kNoDisplay);
        CHECK(r.exit_code == 2);
        CHECK_FALSE(r.err.empty());
    }
    for (const char* unwritable : {"/nonexistent-folder/x.png", "/dev/full"}) {  // output, not usage: exit 1
        CAPTURE(unwritable);
        const RunResult r = run_threadmap({"render", "--preset", "seed-increment", "--out", unwritable}, kNoDisplay);
        CHECK(r.exit_code == 1);
        CHECK_FALSE(r.err.empty());
    }
    CHECK(access(out.c_str(), F_OK) != 0);
}

TEST_CASE("render --timing of a lesson draws what its Timing tab shows - its profile, program and first launch") {
    const auto first_launch_pixels = [](const std::string& lesson) {
        const std::string png = temp_png(lesson);
        const RunResult r = run_threadmap(
            {"render", "--timing", "--preset", lesson, "--backend", "model", "--size", "960x540", "--out", png},
            kNoDisplay);  // no --device-profile: the lesson's
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const PngImage img = load_png(png);
        uint64_t n = 0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) n += img.at(x, y) == std::array<uint8_t, 3>{225, 87, 89};
        std::remove(png.c_str());
        return n;
    };
    CHECK(first_launch_pixels("timing-first-launch") > 5000);  // the first launch's bar segment
    CHECK(first_launch_pixels("timing-pinned") < 500);         // the legend's swatch alone
}

TEST_CASE("render --timing draws the bars and the sweep with no display - from the model or a recording") {
    const std::string png = temp_png("timing"), rec = "/tmp/threadmap-render-rec-" + std::to_string(getpid()) + ".json";
    RunResult r = run_threadmap({"render", "--timing", "--preset", "timing-copies-dominate", "--backend", "model",
                                 "--device-profile", "laptop-gpu", "--size", "960x540", "--out", png},
                                kNoDisplay);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const PngImage img = load_png(png);
    REQUIRE(img.valid());
    const auto c = colours(img);
    CHECK(c.count({78, 121, 167}) == 1);  // an h2d segment
    CHECK(c.count({242, 142, 43}) == 1);  // d2h segment and the GPU + copies curve
    // A recording of the same launch, drawn as recorded (no sweep).
    r = run_threadmap({"bench", "--backend", "model", "--device-profile", "h200", "--preset", "timing-copies-dominate",
                       "--repeat", "2", "--json"});
    REQUIRE(r.exit_code == 0);
    std::ofstream(rec) << r.out;
    r = run_threadmap({"render", "--timing", "--preset", "timing-copies-dominate", "--recording", rec, "--out", png,
                       "--size", "960x540"},
                      kNoDisplay);
    CHECK(r.exit_code == 0);
    r = run_threadmap({"render", "--timing", "--preset", "seed-matmul", "--recording", rec, "--out", png}, kNoDisplay);
    CHECK(r.exit_code == 2);  // a recording of another launch
    CHECK(r.err.find("the current launch is matmul") != std::string::npos);
    r = run_threadmap({"render", "--timing", "--preset", "seed-matmul", "--backend", "model", "--out", png},
                      kNoDisplay);
    CHECK(r.exit_code == 2);
    r = run_threadmap({"render", "--preset", "seed-matmul", "--recording", rec, "--out", png}, kNoDisplay);
    CHECK(r.exit_code == 2);
    std::remove(png.c_str());
    std::remove(rec.c_str());
}
