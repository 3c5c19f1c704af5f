// AppState helpers; see app_state.hpp.
#include "app_state.hpp"

#include "device_profiles.hpp"
#include "legend.hpp"
#include "lessons.hpp"

namespace threadmap {

ColorMode AppState::color_mode() const { return parse_color_mode(settings.color_mode).value_or(ColorMode::Block); }

void select_lesson(AppState& state, const std::string& name) {
    LaunchOptions o;
    o.preset = name;
    auto r = resolve_launch(o);
    if (!r.value) {
        state.message = r.error;
        return;
    }
    state.edit = *r.value;
    state.settings.last_preset = name;
    if (const Lesson* l = find_lesson(name)) state.timing.program = l->program;  // the code shown and timed
    if (const Lesson* l = find_lesson(name); l && l->timing) {  // set the Timing panel up for the lesson
        TimingState& t = state.timing;
        t.source = l->timing->source == "measured" ? TimingSource::Measured : TimingSource::Modeled;
        const auto& profiles = device_profiles();
        for (size_t i = 0; i < profiles.size(); ++i)
            if (profiles[i].name == l->timing->profile) t.profile = int(i);
        t.pinned = l->timing->pinned;
        t.resident = l->timing->resident;
        t.first_launch = l->timing->first_launch;
        t.repeats = l->timing->repeats;
    }
    state.open_view = find_lesson(name) && find_lesson(name)->timing ? CentreView::Timing : CentreView::Map;
    state.pending.apply = true;
    state.requests.fit = true;
    state.pinned_cell.reset();
}

}  // namespace threadmap
