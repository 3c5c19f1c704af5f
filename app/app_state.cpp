// AppState helpers; see app_state.hpp.
#include "app_state.hpp"

#include "legend.hpp"

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
    state.needs_apply = true;
    state.fit_requested = true;
    state.pinned_cell.reset();
}

}  // namespace threadmap
