// Launch updates; see launch_update.hpp.
#include "launch_update.hpp"

#include "launch_check.hpp"

namespace threadmap {

void update_picture(AppState& state, uint32_t max_side, uint64_t max_cells) {
    if (!state.pending.apply && !state.pending.recolor && !state.pending.relayout) return;
    if (state.pending.apply) {
        state.pending.apply = false;
        state.pending.recolor = false;
        state.pending.relayout = false;
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
        if (!built.value && state.backend && state.backend->executor && !state.backend->executor->lost().empty()) {
            // The GPU can run nothing more: the emulator takes over for the rest of the session.
            const std::string why = state.backend->executor->lost();
            state.backend = cpu_backend(why);
            state.backend_line = "Backend: CPU emulator (" + why + ")";
            state.picture.reset();  // its map lived on the lost device
            o.backend = state.backend;
            built = build_picture(*checked.value, o, nullptr);
        }
        if (!built.value) {
            state.launch_error = built.error;
            return;
        }
        state.launch_error.clear();
        state.picture = std::move(built.value);
        if (!same_shape) state.pinned_cell.reset();
    } else if (state.picture) {
        if (state.pending.relayout) {
            PictureOptions o;
            o.blocks_per_row = state.blocks_per_row;
            o.max_side = max_side;
            o.max_cells = max_cells;
            relayout(*state.picture, o);
        }
        state.pending.recolor = state.pending.relayout = false;
        recolor(*state.picture, state.color_mode(), state.palette());
    }
    state.pending.upload = state.picture.has_value();
}

}  // namespace threadmap
