// GLFW, GL and ImGui set-up and teardown; see window_session.hpp.
#include "app/window/window_session.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <utility>

#include "app/launch/input_file.hpp"
#include "viz/draw/ui_font.hpp"

namespace threadmap {

namespace {

void glfw_error(int code, const char* text) { std::fprintf(stderr, "threadmap: GLFW error %d: %s\n", code, text); }

// Whether GLFW is up for wake(): a job finishing as the window closes must not post to it after
// glfwTerminate (GLFW would report an error).
std::mutex g_wake_mutex;
bool g_glfw_up = false;

}  // namespace

Outcome<std::unique_ptr<WindowSession>> WindowSession::open(int width, int height, bool vsync, const char* ini_file) {
    std::unique_ptr<WindowSession> s(new WindowSession);
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit())
        return {std::nullopt,
                "no display to open a window on (is DISPLAY set?); "
                "use 'threadmap render … --out FILE.png' to draw without one"};
    s->glfw_ = true;
    {
        const std::lock_guard lock(g_wake_mutex);
        g_glfw_up = true;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    s->window_ = glfwCreateWindow(width, height, "threadmap", nullptr, nullptr);
    if (!s->window_)
        return {std::nullopt, "could not create an OpenGL 3.3 core window; 'threadmap render' draws offscreen instead"};
    glfwMakeContextCurrent(s->window_);
    glfwSwapInterval(vsync ? 1 : 0);
    glfwSetWindowUserPointer(s->window_, s.get());  // for the drop callback (ImGui's backend keeps its own)
    glfwSetDropCallback(s->window_, [](GLFWwindow* w, int count, const char** paths) {
        auto* session = static_cast<WindowSession*>(glfwGetWindowUserPointer(w));
        for (int i = 0; i < count; ++i) session->dropped_.emplace_back(paths[i]);
        ++session->input_events_;
    });
    count_input_events(s->window_);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    s->imgui_ = true;
    // The window layout is read and written here, not by ImGui (which would open a FIFO or a
    // device at that path and wait on it for ever): read as any input file, written atomically.
    ImGui::GetIO().IniFilename = nullptr;
    if (ini_file) {
        s->ini_path_ = ini_file;
        if (path_exists(s->ini_path_)) {
            const auto text = read_input_file(s->ini_path_, kMaxIniBytes, "window layout");
            if (text.value)
                ImGui::LoadIniSettingsFromMemory(text.value->data(), text.value->size());
            else
                std::fprintf(stderr, "threadmap: %s (the default layout is used)\n", text.error.c_str());
        }
    }
    s->glfw_backend_ = ImGui_ImplGlfw_InitForOpenGL(s->window_, true);
    s->gl_backend_ = ImGui_ImplOpenGL3_Init("#version 330");
    if (!s->glfw_backend_ || !s->gl_backend_)
        return {std::nullopt, "Dear ImGui could not start on this OpenGL context"};
    return {std::move(s), {}};
}

// Every kind of input the window gets counts (input_events). Set before ImGui's backend
// installs its own, which call these first (1.86 chains the callbacks it finds); it installs
// none for motion, resizes or exposure, which it reads from GLFW each frame.
template <class... Args>
void WindowSession::count_event(GLFWwindow* window, Args...) {
    ++static_cast<WindowSession*>(glfwGetWindowUserPointer(window))->input_events_;
}

void WindowSession::count_input_events(GLFWwindow* w) {
    glfwSetKeyCallback(w, count_event<int, int, int, int>);
    glfwSetCharCallback(w, count_event<unsigned>);
    glfwSetMouseButtonCallback(w, count_event<int, int, int>);
    glfwSetScrollCallback(w, count_event<double, double>);
    glfwSetCursorPosCallback(w, count_event<double, double>);
    glfwSetCursorEnterCallback(w, count_event<int>);
    glfwSetWindowFocusCallback(w, count_event<int>);
    glfwSetFramebufferSizeCallback(w, count_event<int, int>);
    glfwSetWindowRefreshCallback(w, count_event<>);
}

WindowSession::~WindowSession() {
    if (imgui_ && !ini_path_.empty()) {
        size_t size = 0;
        const char* text = ImGui::SaveIniSettingsToMemory(&size);
        if (const auto written = write_file_atomically(ini_path_, std::string(text, size)); !written.done())
            std::fprintf(stderr, "threadmap: window layout not saved: %s\n", written.error.c_str());
    }
    if (gl_backend_) ImGui_ImplOpenGL3_Shutdown();
    if (glfw_backend_) ImGui_ImplGlfw_Shutdown();
    if (imgui_) ImGui::DestroyContext();
    if (window_) glfwDestroyWindow(window_);
    if (!glfw_) return;
    const std::lock_guard lock(g_wake_mutex);
    g_glfw_up = false;
    glfwTerminate();
}

void WindowSession::wake() {
    const std::lock_guard lock(g_wake_mutex);
    if (g_glfw_up) glfwPostEmptyEvent();
}

bool WindowSession::should_close() const { return glfwWindowShouldClose(window_); }

float WindowSession::content_scale() const {
    float x = 1, y = 1;
    glfwGetWindowContentScale(window_, &x, &y);
    return std::isfinite(x) && std::isfinite(y) && x > 0 && y > 0 ? std::clamp(std::max(x, y), 0.5f, 4.0f) : 1.0f;
}

void WindowSession::set_size(int width, int height) { glfwSetWindowSize(window_, width, height); }

std::vector<std::string> WindowSession::take_dropped_files() { return std::exchange(dropped_, {}); }

std::optional<FramebufferSize> WindowSession::poll() {
    glfwPollEvents();
    int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    glfwGetWindowSize(window_, &win_w, &win_h);
    if (fb_w <= 0 || fb_h <= 0 || win_w <= 0 || win_h <= 0) {  // minimised: nothing to draw
        glfwWaitEventsTimeout(0.1);
        return std::nullopt;
    }
    return FramebufferSize{fb_w, fb_h, float(fb_w) / float(win_w), content_scale()};
}

void WindowSession::wait_events_until_next_frame(double frame_seconds) {
    const double left = frame_seconds - (glfwGetTime() - last_frame_end_);
    if (left > 0) glfwWaitEventsTimeout(left);
    last_frame_end_ = glfwGetTime();
}

void WindowSession::wait_for_input(double seconds) {
    glfwWaitEventsTimeout(seconds);
    last_frame_end_ = glfwGetTime();
}

void WindowSession::begin_imgui_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
}

void WindowSession::render_imgui() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }

void WindowSession::swap() { glfwSwapBuffers(window_); }

void WindowSession::rebuild_fonts(float pixels, float scale, bool light) {
    load_ui_font(ImGui::GetIO(), pixels);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGuiStyle style;
    if (light) {
        ImGui::StyleColorsLight(&style);
        // ImGui's light style draws hints in 60% grey and fields white on a 94% grey window,
        // without borders: faint on a projector. Darker hints, framed fields.
        style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.36f, 1.0f);
        style.Colors[ImGuiCol_FrameBg] = ImVec4(0.98f, 0.98f, 0.98f, 1.0f);
        style.Colors[ImGuiCol_Border] = ImVec4(0.55f, 0.55f, 0.58f, 0.85f);
        style.FrameBorderSize = 1.0f;
    } else {
        ImGui::StyleColorsDark(&style);
    }
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

}  // namespace threadmap
