// The window's platform: GLFW, an OpenGL 3.3 core context, Dear ImGui and its GLFW and
// OpenGL3 backends, set up in the order of ImGui 1.86's example_glfw_opengl3 and torn down
// in reverse by the destructor.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/core/outcome.hpp"

struct GLFWwindow;

namespace threadmap {

struct FramebufferSize {
    int width = 0, height = 0;  // pixels
    float scale = 1;            // framebuffer pixels per window pixel (HiDPI)
    // The monitor's content scale (GLFW's: 2 on a 4K laptop screen set to 200%), which changes
    // when the window moves to another monitor.
    float content_scale = 1;
};

class WindowSession {
  public:
    // error: one sentence for stderr (no display, no GL 3.3 context).
    static Outcome<std::unique_ptr<WindowSession>> open(int width, int height, bool vsync, const char* ini_file);
    // The content scale of the monitor the window opened on (1 where the system says none).
    float content_scale() const;
    ~WindowSession();
    WindowSession(const WindowSession&) = delete;
    WindowSession& operator=(const WindowSession&) = delete;

    bool should_close() const;
    // Polls input; returns the framebuffer's size, or nothing while the window is minimised.
    std::optional<FramebufferSize> poll();
    // Waits for input, at most until `frame_seconds` after the last call returned.
    void wait_events_until_next_frame(double frame_seconds);
    // Waits for input (or wake()) for at most `seconds`: an idle window's frames.
    void wait_for_input(double seconds);
    // Ends either wait now; from any thread, also after the window closed (then it does nothing).
    static void wake();
    // The input events the window has had (keys, characters, mouse buttons, motion, scrolling,
    // focus, files dropped, resizes, exposure): while none come, an idle window waits.
    uint64_t input_events() const { return input_events_; }
    void begin_imgui_frame();  // the backends' NewFrame (input injection goes after it)
    void render_imgui();       // ImGui's draw data into the bound framebuffer
    void swap();
    void set_size(int width, int height);  // window pixels
    // The files dropped on the window since the last call (a session file opens).
    std::vector<std::string> take_dropped_files();
    // UI scale and theme: the font atlas, the style's sizes and colours.
    void rebuild_fonts(float pixels, float scale, bool light);

  private:
    WindowSession() = default;
    GLFWwindow* window_ = nullptr;
    bool glfw_ = false, imgui_ = false, glfw_backend_ = false, gl_backend_ = false;
    double last_frame_end_ = 0;  // glfwGetTime() when wait_events_until_next_frame last returned
    std::string ini_path_;       // the window layout's file (ImGui's ini), or empty: not kept
    std::vector<std::string> dropped_;
    uint64_t input_events_ = 0;
    // GLFW's callbacks that count input_events_ (window_session.cpp).
    static void count_input_events(GLFWwindow* window);
    template <class... Args>
    static void count_event(GLFWwindow* window, Args...);
    static constexpr uint64_t kMaxIniBytes = uint64_t(1) << 20;
};

}  // namespace threadmap
