// Scripted input for tests and benchmarks (`threadmap --replay FILE`): each line is
// "FRAME COMMAND ARGS…", injected into ImGui's input at that frame, so every panel's real
// input handling runs. Commands:
//   move X Y | move WIDGET            put the mouse there (WIDGET: a name from widget_rects,
//                                     spaces and all; a widget not on screen at that frame
//                                     stops the script with exit 2, naming it)
//   move cell X Y | click cell X Y    the centre of the map's cell (column X, row Y) as the view
//   scroll cell X Y DY                shows it at that frame (ImGui floors the mouse to whole
//                                     pixels: zoom in first where cells are smaller than one)
//   move? WIDGET | click? WIDGET      the same if the widget is on screen, else nothing (the
//                                     monkey test's random clicks)
//   click X Y | click WIDGET          press the left button there; released (and a button
//                                     fires) the frame after
//   drag X1 Y1 X2 Y2                  press the left button at (X1, Y1), move to (X2, Y2) with
//                                     it down the next frame, release the frame after
//   scroll X Y DY                     wheel DY notches at (X, Y)
//   key [ctrl+][shift+]NAME           NAME: a-z, enter, backspace, tab, escape, space, equal, minus,
//                                     left, right, f11
//   type TEXT                         characters typed (the rest of the line)
//   drop FILE                         a file dropped on the window (a session file opens)
//   resize WIDTH HEIGHT               the window's size, in window pixels (1 to 16384)
//   screenshot FILE                   the window's pixels after the frame, as PNG
//   state FILE                        the map's place and view, launch and widgets, as JSON
//   wait idle                         hold the script here until no map, timing run or sweep
//                                     is being computed (frames go on; at most two minutes,
//                                     then the window exits 2 saying what it waited for)
//   quit
// FRAME counts the script's frames: a held `wait` does not advance it; frames never go back.
// Numbers are finite (no nan, no inf).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "kernels/core/outcome.hpp"
#include "app/window_state/app_state.hpp"

struct GLFWwindow;

namespace threadmap {

struct ReplayStep {
    int frame = 0;
    std::string command;
    std::vector<std::string> args;
    std::string rest;       // everything after the command, for `type`
    int line = 0;           // of the script, for its errors
    bool optional = false;  // `click?`, `move?`: only if the widget is on screen
};

class Replay {
  public:
    // Parses and checks a script (every command, key and number); error: "FILE:LINE: what
    // was expected", or why the file cannot be read.
    static Outcome<Replay> load(const std::string& path);
    static Outcome<Replay> parse(const std::string& text, const std::string& name);
    static Replay screenshot_then_quit(const std::string& path, int frame);
    static Replay quit_after(int frame);

    // A script that does not quit ends `frames` frames after its last step, after a
    // screenshot into `screenshot` when one is given (--quit-after-frames, --screenshot).
    void end_after(int frames, const std::string& screenshot);
    static constexpr int kDefaultEndFrames = 30;

    // After ImGui_ImplGlfw_NewFrame, before ImGui::NewFrame: the script's next frame, or
    // the mouse alone while a `wait` holds the script.
    void inject(AppState& state);  // may ask for a resize
    // After the frame is drawn, before the swap: runs the frame's outputs and moves the
    // script on. A failure says which step could not run.
    Outcome<void> after_render(AppState& state, int framebuffer_width, int framebuffer_height);

    static constexpr std::chrono::seconds kWaitCap{120};
    static constexpr int kMaxReplayWindowSide = 16384;

  private:
    void press_key(std::string name, int frame);
    bool held(const AppState& state);

    int frame_ = 1;         // the script's clock
    bool holding_ = false;  // this window frame is a held one: no steps run
    std::optional<std::chrono::steady_clock::time_point> wait_started_;
    std::vector<ReplayStep> steps_;
    std::optional<std::pair<float, float>> mouse_;    // injected position, held until moved
    std::optional<std::pair<float, float>> drag_to_;  // where a drag begun last frame goes
    int release_keys_at_ = -1;
    std::vector<int> held_keys_;
    std::string name_;   // the script's, for its errors
    std::string error_;  // a step that could not run (a widget not on screen), for after_render
};

}  // namespace threadmap
