// The window's clock for `--frame-report` (scripts/bench-window.sh): how long each frame
// took, how long each launch change took to new colours and to the screen.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/window_state/app_state.hpp"

namespace threadmap {

class FrameClock {
  public:
    // As a frame's work begins (after its wait for input: while a map computes the loop waits
    // between frames, and that wait is not the frame's).
    void frame_begins() { frame_start_ = Clock::now(); }
    // Before update_picture: starts the change-to-screen clock when a launch change is new.
    void before_update(const AppState& state);
    // After update_picture, when it had work: how long the update took (state.last_update_ms).
    void after_update(AppState& state, bool updated);
    // After the swap: the frame took from frame_begins to now.
    void frame_shown(const AppState& state);
    // JSON: frame_ms (with frame_start_s, seconds from the first frame's start, and
    // `computing`, per frame), update_ms, change_to_screen_ms, the map's
    // size, and the process's resident memory (MB) at the first frame, every 10 s, and the last.
    Outcome<void> write_report(const std::string& path, const AppState& state) const;

  private:
    using Clock = std::chrono::steady_clock;
    static double ms_since(Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    }
    std::vector<double> frame_ms_, update_ms_, change_to_screen_ms_;
    std::vector<double> frame_start_s_;  // per frame: when its work began, from the first's
    std::vector<bool> computing_;        // per frame: a map was being computed off the UI thread
    Clock::time_point frame_start_ = Clock::now(), first_start_{}, update_start_{}, change_start_{};
    bool change_pending_ = false;                    // a launch change not yet on screen
    std::vector<std::pair<double, double>> rss_mb_;  // (seconds since the first frame, MB)
    Clock::time_point first_frame_{};
};

}  // namespace threadmap
