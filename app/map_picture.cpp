// Launch → emulation → layout → colours; see map_picture.hpp.
#include "map_picture.hpp"

namespace threadmap {

PictureResult build_picture(const ResolvedLaunch& r, const PictureOptions& o, MapPicture* previous) {
    PictureResult out;
    auto layout = make_layout(r.workload, r.launch, o.blocks_per_row, o.max_side, o.max_cells);
    if (!layout.layout) {
        out.error = layout.problem;
        return out;
    }
    MapPicture p;
    p.launch = r;
    if (o.backend && o.backend->cuda) {
        LaunchRun run = run_launch(r, *o.backend);
        if (!run.value) {
            out.error = run.error;
            return out;
        }
        p.emulation = std::move(*run.value);
    } else if (previous) {
        p.emulation = std::move(previous->emulation);
        emulate_into(r.workload, r.launch, p.emulation);
    } else {
        p.emulation = emulate(r.workload, r.launch);
    }
    p.layout = *layout.layout;
    recolor(p, o.mode, o.palette);
    out.picture = std::move(p);
    return out;
}

bool relayout(MapPicture& p, const PictureOptions& o) {
    auto layout = make_layout(p.launch.workload, p.launch.launch, o.blocks_per_row, o.max_side, o.max_cells);
    if (!layout.layout) return false;
    p.layout = *layout.layout;
    return true;
}

void recolor(MapPicture& p, ColorMode mode, Palette palette) {
    p.color = {mode, palette, p.launch.launch.grid, p.launch.launch.block};
}

void paint(const MapPicture& p, Rgba8* out) { colorize_layout(p.layout, p.emulation.map, p.color, out); }

}  // namespace threadmap
