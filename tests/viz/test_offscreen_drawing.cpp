// The GL drawing code in this process, through a surfaceless EGL context (no display): the
// cell-grid renderer and the figure draw a map whose cells have the colorizer's colours, and
// the timing figure draws its bars. In the sanitizer build this is where the GL resource code
// (buffers, textures, programs, framebuffers, the ImGui overlay) is checked for leaks and
// misuse; llvmpipe runs there without threads (LP_NUM_THREADS=0) so LeakSanitizer can work.
// The draw calls themselves run Mesa's shader compiler (LLVM), which keeps small caches for
// the process: LeakSanitizer is paused around them (only), so what it reports is ours.
#include <doctest/doctest.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
struct MesaDrawing {  // allocations made meanwhile are not leak-checked
    MesaDrawing() { __lsan_disable(); }
    ~MesaDrawing() { __lsan_enable(); }
};
#else
struct MesaDrawing {};
#endif

#include <map>

#include "viz/draw/cell_grid_renderer.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "viz/draw/figure.hpp"
#include "viz/draw/gl_resources.hpp"
#include "viz/draw/image_export.hpp"
#include "viz/layout/map_layout.hpp"
#include "viz/draw/offscreen_context.hpp"
#include "viz/draw/overlay.hpp"
#include "viz/draw/timing_figure.hpp"

using namespace threadmap;

TEST_CASE("a map and a figure drawn in-process through EGL have the colorizer's colours") {
    const auto context = OffscreenContext::open();
    REQUIRE_MESSAGE(context.value, context.error);
    constexpr int kWidth = 800, kHeight = 450;
    HeadlessImGui imgui(kWidth, kHeight, 16);
    const Workload workload = array_workload(&IncrementBody::kernel, 100);
    const LaunchConfig launch{{4, 1, 1}, {32, 1, 1}};
    const LaunchResult result = emulate(workload, launch);
    const auto layout = make_layout(workload, launch, {2}, uint32_t(CellGridRenderer::max_texture_side()));
    REQUIRE(layout.value);
    const MapLayout& m = *layout.value;
    const ColorContext color{ColorMode::Block, Palette::Standard, launch.grid, launch.block};

    for (int pass = 0; pass < 2; ++pass) {  // resources made, freed and made again
        CellGridRenderer renderer;
        colorize_layout(m, result.map, color, renderer.map_cells(m.width, m.height));
        renderer.unmap_cells();
        RenderTarget target(kWidth, kHeight);
        target.bind();
        FigureSpec spec;
        spec.layout = &m;
        spec.legend = make_legend({color.mode, color.palette, launch.grid, launch.block});
        spec.caption = launch_caption(std::string(kernel_name(workload.kernel)), "", m, color.mode);
        spec.width = kWidth;
        spec.height = kHeight;
        spec.font_px = 16;
        {
            MesaDrawing mesa;
            draw_figure(renderer, spec);
        }
        const Image img = read_framebuffer(kWidth, kHeight);
        // The centre of each element's cell, where the figure's fitted view puts it.
        const ViewRect area = figure_map_area(spec);
        const View view = figure_view(spec);
        int checked = 0;
        for (uint32_t y = 0; y < m.height; ++y)
            for (uint32_t x = 0; x < m.width; ++x) {
                if (!m.element_at(x, y)) continue;
                const glm::dvec2 s = world_to_screen(view, area, {x + 0.5, y + 0.5});
                const Rgba8 want = colorize(sample_cell(m, result.map, x, y), color);
                const uint8_t* got = img.pixel(int(s.x), int(s.y));
                CHECK(int(got[0]) == int(want.r));
                CHECK(int(got[1]) == int(want.g));
                CHECK(int(got[2]) == int(want.b));
                ++checked;
            }
        CHECK(checked == 100);
    }
}

// `m` drawn as a figure from the colours `renderer` holds.
Image figure_of(CellGridRenderer& renderer, const MapLayout& m, const ColorContext& color) {
    constexpr int kWidth = 640, kHeight = 360;
    RenderTarget target(kWidth, kHeight);
    target.bind();
    FigureSpec spec;
    spec.layout = &m;
    spec.legend = make_legend({color.mode, color.palette, color.grid, color.block});
    spec.width = kWidth;
    spec.height = kHeight;
    spec.font_px = 16;
    {
        MesaDrawing mesa;
        draw_figure(renderer, spec);
    }
    return read_framebuffer(kWidth, kHeight);
}

TEST_CASE("one colour buffer serves maps of any size in turn - each drawn with its own colours, never the last's") {
    const auto context = OffscreenContext::open();
    REQUIRE_MESSAGE(context.value, context.error);
    HeadlessImGui imgui(640, 360, 16);
    CellGridRenderer renderer;
    // Growing a little (kept storage), shrinking below a quarter (new storage), growing past it,
    // and after a reservation ahead of a map (the window's, while a worker computes it).
    // New storage (which CUDA interop must register anew) only where the map outgrew the buffer
    // or took under a quarter of it: at 400, 60, the reservation before 700, and 2000.
    const std::map<uint64_t, uint64_t> storages_after{{400, 1}, {520, 1}, {60, 2}, {700, 3}, {2000, 4}};
    for (const uint64_t n : {400, 520, 60, 700, 2000}) {  // 4, 5, 1, 6 and 16 rows of 128 cells
        if (n == 700) renderer.reserve_cells(1000);
        CAPTURE(n);
        const Workload workload = array_workload(&IncrementBody::kernel, n);
        const LaunchConfig launch{{uint32_t((n + 31) / 32), 1, 1}, {32, 1, 1}};
        const LaunchResult result = emulate(workload, launch);
        const auto layout = make_layout(workload, launch, {4}, uint32_t(CellGridRenderer::max_texture_side()));
        REQUIRE(layout.value);
        const MapLayout& m = *layout.value;
        const ColorContext color{ColorMode::Global, Palette::Standard, launch.grid, launch.block};
        std::vector<Rgba8> want(size_t(m.width) * m.height);
        colorize_layout(m, result.map, color, want.data());
        colorize_layout(m, result.map, color, renderer.map_cells(m.width, m.height));
        renderer.unmap_cells();
        CHECK(renderer.storage_generation() == storages_after.at(n));
        const std::vector<Rgba8> held = renderer.read_cells();
        REQUIRE(held.size() == want.size());
        CHECK(std::equal(held.begin(), held.end(), want.begin(),
                         [](Rgba8 a, Rgba8 b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }));
        // The same figure from a buffer made for this map alone, pixel for pixel.
        CellGridRenderer fresh;
        colorize_layout(m, result.map, color, fresh.map_cells(m.width, m.height));
        fresh.unmap_cells();
        const Image kept = figure_of(renderer, m, color), own = figure_of(fresh, m, color);
        CHECK(kept.rgba == own.rgba);
    }
}

TEST_CASE("the timing figure draws its bars in-process through EGL") {
    const auto context = OffscreenContext::open();
    REQUIRE_MESSAGE(context.value, context.error);
    constexpr int kWidth = 640, kHeight = 360;
    HeadlessImGui imgui(kWidth, kHeight, 14);
    RenderTarget target(kWidth, kHeight);
    target.bind();
    const std::vector<TimingBar> bars = {{"GPU (modeled)", {{"h2d", 2e-3}, {"kernel", 1e-4}, {"d2h", 2e-3}}},
                                         {"CPU (measured)", {{"cpu", 1e-3}}}};
    {
        MesaDrawing mesa;
        draw_timing_figure(kWidth, kHeight, 14, {"increment [1000000]"}, bars, 4.1e-3, nullptr);
    }
    const Image img = read_framebuffer(kWidth, kHeight);
    int h2d = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            const uint8_t* p = img.pixel(x, y);
            h2d += p[0] == 78 && p[1] == 121 && p[2] == 167;
        }
    CHECK(h2d > 2000);  // the h2d segment: nearly half of a full-width bar
}

TEST_CASE("EGL devices for interop - only the one that is the CUDA device - software devices never") {
    const std::vector<EglDeviceInfo> devices = {
        {"EGL_MESA_device_software", std::nullopt},                           // llvmpipe
        {"EGL_NV_device_cuda EGL_EXT_device_drm", 1},                         // the second GPU
        {"EGL_NV_device_cuda EGL_EXT_device_drm", 0},                         // the first GPU
        {"EGL_EXT_device_drm EGL_EXT_device_drm_render_node", std::nullopt},  // another vendor's GPU
    };
    CHECK(egl_devices_to_try(devices, 0) == std::vector<size_t>{2});
    CHECK(egl_devices_to_try(devices, 1) == std::vector<size_t>{1});
    CHECK(egl_devices_to_try(devices, 2).empty());  // then surfaceless, painting on the host
    CHECK(egl_devices_to_try(devices, std::nullopt) == std::vector<size_t>{1, 2, 3});
    CHECK(egl_devices_to_try({}, 0).empty());
}

TEST_CASE("asking for the EGL device of a CUDA device that does not exist still draws - and says why") {
    MesaDrawing mesa;
    const auto context = OffscreenContext::open(7);
    REQUIRE_MESSAGE(context.value, context.error);
    CHECK_FALSE((*context.value)->on_cuda_device());
    CHECK((*context.value)->description().find("no EGL device is CUDA device 7") != std::string::npos);
}

TEST_CASE("a GL failure is kept until taken - the first one, as a device failure - and drawing goes on") {
    const auto context = OffscreenContext::open();
    REQUIRE_MESSAGE(context.value, context.error);
    REQUIRE(take_gl_failure().done());
    RenderTarget too_wide(1 << 20, 4);  // past any GL_MAX_TEXTURE_SIZE
    CellGridRenderer renderer;          // still made after the failure
    const Outcome<void> gl = take_gl_failure();
    CHECK(gl.kind == Failure::Device);
    CHECK(gl.error.find("glTexImage2D") != std::string::npos);
    CHECK(take_gl_failure().done());  // taken: the next frame starts clean
}

TEST_CASE("a figure's caption wider than the figure wraps onto more lines, and the map starts below it") {
    const auto context = OffscreenContext::open();
    REQUIRE_MESSAGE(context.value, context.error);
    HeadlessImGui imgui(480, 270, 16);
    FigureSpec spec;
    spec.width = 480;
    spec.height = 270;
    spec.font_px = 16;
    spec.caption = "histogram-racy · bins [16]\nwho wrote each element";
    const double two_lines = figure_map_area(spec).y;
    spec.caption +=
        "; 4096 threads launched, 4096 wrote to it; 0 elements untouched, 16 touched by more than one thread";
    const double wrapped = figure_map_area(spec).y;
    CHECK(wrapped >= two_lines + 16);  // a line more, not one line run off the edge
}
