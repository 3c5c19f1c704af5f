// Launch updates; see launch_update.hpp.
#include "launch_update.hpp"

#include "launch_check.hpp"

namespace threadmap {

void update_picture(AppState& state, uint32_t max_side, uint64_t max_cells) {
    if (!state.needs_apply && !state.needs_recolor && !state.needs_relayout) return;
    if (state.needs_apply) {
        state.needs_apply = false;
        state.needs_recolor = false;
        state.needs_relayout = false;
        const DeviceLimits limits = state.backend ? state.backend->limits : cc90_profile();
        const CheckedLaunch checked = check_resolved(state.edit, limits);
        if (!checked.value) {
            state.launch_error = checked.error;
            return;
        }
        PictureOptions o;
        o.mode = state.color_mode();
        o.palette = state.palette();
        o.blocks_per_row = state.blocks_per_row;
        o.max_side = max_side;
        o.max_cells = max_cells;
        o.backend = state.backend;
        const bool same_shape = state.picture && state.picture->launch.workload == checked.value->workload;
        auto built = build_picture(*checked.value, o, state.picture ? &*state.picture : nullptr);
        if (!built.picture) {
            state.launch_error = built.error;
            return;
        }
        state.launch_error.clear();
        state.picture = std::move(built.picture);
        if (!same_shape) state.pinned_cell.reset();
    } else if (state.picture) {
        if (state.needs_relayout) {
            PictureOptions o;
            o.blocks_per_row = state.blocks_per_row;
            o.max_side = max_side;
            o.max_cells = max_cells;
            relayout(*state.picture, o);
        }
        state.needs_recolor = state.needs_relayout = false;
        recolor(*state.picture, state.color_mode(), state.palette());
    }
    state.needs_upload = state.picture.has_value();
}

}  // namespace threadmap
