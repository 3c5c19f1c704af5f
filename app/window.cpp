// The window and its frame loop; see window.hpp. Teardown runs in reverse order of set-up,
// as in ImGui's example_glfw_opengl3 for v1.86.
#include "window.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "build_info.hpp"
#include "backend_choice.hpp"
#include "cell_grid_renderer.hpp"
#include "cuda_interop.hpp"
#include "export_names.hpp"
#include "figure.hpp"
#include "frame.hpp"
#include "image_export.hpp"
#include "launch_update.hpp"
#include "lessons.hpp"
#include "main_layout.hpp"
#include "replay.hpp"
#include "settings.hpp"
#include "ui_font.hpp"

namespace threadmap {

namespace {

constexpr float kBaseFontPx = 17;

// "no CUDA device: cudaGetDeviceCount failed with error 35 (cudaErrorInsufficientDriver: …)"
// → "no CUDA device: cudaErrorInsufficientDriver; see threadmap devices": fits a status bar.
std::string short_reason(const std::string& reason) {
    const size_t at = reason.find("cudaError");
    if (at == std::string::npos) return reason;
    const size_t end = reason.find_first_of(":) ", at);
    return reason.substr(0, reason.find(':') + 1) + " " + reason.substr(at, end - at) + "; see threadmap devices";
}

void glfw_error(int code, const char* text) { std::fprintf(stderr, "threadmap: GLFW error %d: %s\n", code, text); }

void apply_scale(AppState& state) {
    const float s = state.settings.ui_scale;
    load_ui_font(ImGui::GetIO(), kBaseFontPx * s);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(s);
    ImGui::GetStyle() = style;
    state.scale_changed = false;
}

std::string export_path(const AppState& state, bool whole_window) {
    return state.settings.export_dir + "/" +
           export_file_name(state.picture->launch, state.settings.color_mode, whole_window, std::time(nullptr));
}

void export_map(AppState& state, const CellGridRenderer& renderer) {
    const int k = state.settings.export_scale;
    const MapPicture& p = *state.picture;
    FigureSpec spec;
    spec.layout = &p.layout;
    spec.legend = make_legend(p.color.mode, p.color.palette, p.layout.launch);
    spec.caption = launch_caption(p.layout, p.color.mode);
    spec.width = std::max(640, int(state.map_rect.w)) * k;
    spec.height = std::max(360, int(state.map_rect.h)) * k;
    spec.font_px = kBaseFontPx * state.settings.ui_scale * float(k);
    RenderTarget target(spec.width, spec.height);
    target.bind();
    draw_figure(renderer, spec);
    const std::string path = export_path(state, false);
    const std::string why = write_png(read_framebuffer(spec.width, spec.height), path);
    state.message = why.empty() ? "saved " + path : why;
}

void export_window(AppState& state, MapFrame& frame, int fb_w, int fb_h, float fb_scale) {
    const int k = state.settings.export_scale;
    ImDrawData* data = ImGui::GetDrawData();
    RenderTarget target(fb_w * k, fb_h * k);
    target.bind();
    frame.framebuffer_scale = fb_scale * float(k);
    frame.framebuffer_height = fb_h * k;
    const ImVec2 before = data->FramebufferScale;
    data->FramebufferScale = ImVec2(before.x * float(k), before.y * float(k));
    ImGui_ImplOpenGL3_RenderDrawData(data);
    data->FramebufferScale = before;
    const std::string path = export_path(state, true);
    const std::string why = write_png(read_framebuffer(fb_w * k, fb_h * k), path);
    state.message = why.empty() ? "saved " + path : why;
}

struct FrameTimes {
    std::vector<double> frame_ms;   // start of one frame to the start of the next (after swap)
    std::vector<double> update_ms;  // launch change to new colours (update_picture), when one ran
    std::vector<double> change_to_screen_ms;  // launch change to the swap that showed it
};

void write_frame_report(const std::string& path, const FrameTimes& t, const AppState& s) {
    nlohmann::json j = {{"frame_ms", t.frame_ms}, {"update_ms", t.update_ms}, {"change_to_screen_ms", t.change_to_screen_ms}};
    if (s.picture)
        j["map"] = {{"kernel", std::string(kernel_name(s.picture->launch.workload.kernel))},
                    {"cells", uint64_t(s.picture->layout.width) * s.picture->layout.height}};
    std::ofstream(path) << j.dump(1) << "\n";
}

}  // namespace

int run_window(const WindowOptions& o) {
    std::optional<Replay> replay;
    if (!o.replay.empty()) {
        std::string error;
        replay = Replay::load(o.replay, error);
        if (!replay) {
            std::fprintf(stderr, "threadmap: %s\n", error.c_str());
            return 2;
        }
    } else if (!o.screenshot.empty()) {
        replay = Replay::screenshot_then_quit(o.screenshot, std::max(o.quit_after_frames, 1));
    } else if (o.quit_after_frames > 0) {
        replay = Replay::quit_after(o.quit_after_frames);
    }

    AppState state;
    if (!o.keep_settings) state.settings = load_settings(state.message);
    if (o.launch) {
        if (!o.launch->preset.empty()) select_lesson(state, o.launch->preset);  // its Timing setup too
        state.edit = *o.launch;  // with the command line's changes to the lesson
    } else {
        select_lesson(state, state.settings.last_preset);
    }

    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr,
                     "threadmap: no display to open a window on (is DISPLAY set?); "
                     "use 'threadmap render … --out FILE.png' to draw without one\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(o.width, o.height, "threadmap", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "threadmap: could not create an OpenGL 3.3 core window; "
                             "'threadmap render' draws offscreen instead\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(o.frame_report.empty() ? 1 : 0);  // a benchmark measures frames, not vsync

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    const std::string ini = config_dir() + "/imgui.ini";
    ImGui::GetIO().IniFilename = o.keep_settings ? nullptr : ini.c_str();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");

    int exit_code = 0;
    {
        const auto renderer = std::make_unique<CellGridRenderer>();
        CudaGlPainter painter;  // declared after the renderer: unregisters its buffer first
        const uint32_t max_side = uint32_t(CellGridRenderer::max_texture_side());
        const uint64_t max_cells = CellGridRenderer::max_cells();
        if (const BackendResult b = choose_backend(o.backend); b.choice) {
            state.backend = b.choice;
            state.backend_line = b.choice->cuda ? "Backend: " + b.choice->name : "Backend: CPU emulator (" + short_reason(b.choice->reason) + ")";
        } else {
            state.backend_line = "Backend: CPU emulator (" + b.error + ")";
        }
        MapFrame frame;
        frame.renderer = renderer.get();
        FrameTimes times;
        std::chrono::steady_clock::time_point change_started{};
        bool change_pending = false;  // a launch change not yet on screen
        auto frame_start = std::chrono::steady_clock::now();

        while (!glfwWindowShouldClose(window) && !state.quit_requested) {
            glfwPollEvents();
            int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
            glfwGetFramebufferSize(window, &fb_w, &fb_h);
            glfwGetWindowSize(window, &win_w, &win_h);
            if (fb_w <= 0 || fb_h <= 0 || win_w <= 0 || win_h <= 0) {  // minimised: nothing to draw
                glfwWaitEventsTimeout(0.1);
                continue;
            }
            if (state.scale_changed) apply_scale(state);
            if (state.needs_apply && !change_pending) {
                change_started = std::chrono::steady_clock::now();
                change_pending = true;
            }
            const bool updating = state.needs_apply || state.needs_recolor;
            const auto update_start = std::chrono::steady_clock::now();
            update_picture(state, max_side, max_cells);
            if (state.needs_upload) {  // colours straight into the GL buffer the shader reads
                const MapPicture& p = *state.picture;
                const bool gpu = state.backend && state.backend->cuda;
                const std::string why_not = gpu ? painter.paint(*renderer, p.layout, p.emulation.map, p.color) : "";
                if (!gpu || !why_not.empty()) {
                    paint(p, renderer->map_cells(p.layout.width, p.layout.height));
                    renderer->unmap_cells();
                }
                // With a GPU, say where the colours came from; without one the backend line says it.
                state.paint_line = !gpu ? "" : why_not.empty() ? "colours painted on the GPU (CUDA-OpenGL interop)"
                                                               : "colours painted on the host (" + why_not + ")";
                state.needs_upload = false;
            }
            if (updating) {
                state.last_update_ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - update_start).count();
                times.update_ms.push_back(state.last_update_ms);
            }

            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            if (replay) replay->inject(state);
            ImGui::NewFrame();
            handle_shortcuts(state);
            draw_main_layout(state, frame);
            ImGui::Render();

            const float fb_scale = float(fb_w) / float(win_w);
            frame.framebuffer_scale = fb_scale;
            frame.framebuffer_height = fb_h;
            begin_window_frame(fb_w, fb_h, {16, 17, 20, 255});
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            if (replay) {
                const std::string why = replay->after_render(state, fb_w, fb_h);
                if (!why.empty()) {
                    std::fprintf(stderr, "threadmap: %s\n", why.c_str());
                    exit_code = 2;
                    state.quit_requested = true;
                }
            }
            if (state.picture && (state.export_map_requested || state.export_window_requested)) {
                if (state.export_map_requested) export_map(state, *renderer);
                if (state.export_window_requested) export_window(state, frame, fb_w, fb_h, fb_scale);
                begin_window_frame(fb_w, fb_h, {16, 17, 20, 255});  // back to the window
                ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            }
            state.export_map_requested = state.export_window_requested = false;
            glfwSwapBuffers(window);
            if (!o.frame_report.empty()) finish_gpu_work();

            const auto now = std::chrono::steady_clock::now();
            times.frame_ms.push_back(std::chrono::duration<double, std::milli>(now - frame_start).count());
            frame_start = now;
            if (change_pending && !state.needs_apply) {
                times.change_to_screen_ms.push_back(std::chrono::duration<double, std::milli>(now - change_started).count());
                change_pending = false;
            }
        }
        if (!o.frame_report.empty()) write_frame_report(o.frame_report, times, state);
    }
    if (!o.keep_settings) {
        const std::string why = save_settings(state.settings);
        if (!why.empty()) std::fprintf(stderr, "threadmap: %s\n", why.c_str());
    }

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}

}  // namespace threadmap
