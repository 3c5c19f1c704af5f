// Frame and update times; see frame_clock.hpp.
#include "app/window/frame_clock.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

namespace threadmap {

namespace {

// Resident memory of this process (Linux /proc), in MB; 0 where it cannot be read.
double resident_mb() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

constexpr double kRssSampleSeconds = 10;

}  // namespace

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
    // A redraw keeps the time the map took to compute beside its own (a lesson whose view
    // recolours its first map said only "map redrawn in 0 ms").
    if (!state.picture_job)
        (state.last_map_change == AppState::MapChange::Redrawn ? state.last_redraw_ms : state.last_update_ms) =
            ms_since(update_start_);
    update_ms_.push_back(ms_since(update_start_));
}

void FrameClock::frame_shown(const AppState& state) {
    frame_ms_.push_back(ms_since(frame_start_));
    computing_.push_back(state.picture_job.has_value());
    const Clock::time_point now = Clock::now();
    if (frame_ms_.size() == 1) first_frame_ = now, first_start_ = frame_start_;
    frame_start_s_.push_back(std::chrono::duration<double>(frame_start_ - first_start_).count());
    const double t = std::chrono::duration<double>(now - first_frame_).count();
    if (rss_mb_.empty() || t - rss_mb_.back().first >= kRssSampleSeconds) rss_mb_.emplace_back(t, resident_mb());
    if (change_pending_ && !state.pending.apply && !state.picture_job) {  // computed, painted and shown
        change_to_screen_ms_.push_back(ms_since(change_start_));
        change_pending_ = false;
    }
}

Outcome<void> FrameClock::write_report(const std::string& path, const AppState& state) const {
    nlohmann::json j = {{"frame_ms", frame_ms_},
                        {"frame_start_s", frame_start_s_},
                        {"computing", computing_},
                        {"update_ms", update_ms_},
                        {"change_to_screen_ms", change_to_screen_ms_}};
    auto rss = rss_mb_;
    rss.emplace_back(std::chrono::duration<double>(Clock::now() - first_frame_).count(), resident_mb());
    double peak = 0;
    for (const auto& sample : rss) peak = std::max(peak, sample.second);
    j["rss_mb"] = {{"start", rss.front().second}, {"end", rss.back().second}, {"max", peak}, {"samples", rss}};
    if (state.picture)
        j["map"] = {{"kernel", state.picture->launch.kernel_name()},
                    {"cells", uint64_t(state.picture->layout.width) * state.picture->layout.height}};
    std::ofstream f(path);
    f << j.dump(1) << "\n";
    return f.flush() ? done() : failed("could not write the frame report " + path);
}

}  // namespace threadmap
