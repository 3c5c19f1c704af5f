// Frame and update times; see frame_clock.hpp.
#include "frame_clock.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

namespace threadmap {

void FrameClock::before_update(const AppState& state) {
    update_start_ = Clock::now();
    if (state.pending.apply && !change_pending_) {
        change_start_ = update_start_;
        change_pending_ = true;
    }
}

void FrameClock::after_update(AppState& state, bool updated) {
    if (!updated) return;
    // A launch change only starts a job here: the update that counts is the job's, when its
    // map arrives (update_picture sets last_update_ms); a recolour or relayout is done here.
    if (!state.picture_job) state.last_update_ms = ms_since(update_start_);
    update_ms_.push_back(ms_since(update_start_));
}

void FrameClock::frame_shown(const AppState& state) {
    frame_ms_.push_back(ms_since(frame_start_));
    computing_.push_back(state.picture_job.has_value());
    frame_start_ = Clock::now();
    if (change_pending_ && !state.pending.apply && !state.picture_job) {  // computed, painted and shown
        change_to_screen_ms_.push_back(ms_since(change_start_));
        change_pending_ = false;
    }
}

Outcome<void> FrameClock::write_report(const std::string& path, const AppState& s) const {
    nlohmann::json j = {{"frame_ms", frame_ms_},
                        {"computing", computing_},
                        {"update_ms", update_ms_},
                        {"change_to_screen_ms", change_to_screen_ms_}};
    if (s.picture)
        j["map"] = {{"kernel", std::string(kernel_name(s.picture->launch.workload.kernel))},
                    {"cells", uint64_t(s.picture->layout.width) * s.picture->layout.height}};
    std::ofstream f(path);
    f << j.dump(1) << "\n";
    return f.flush() ? done() : failed("could not write the frame report " + path);
}

}  // namespace threadmap
