// Launch → emulation → layout → colours; see map_picture.hpp.
#include "map_picture.hpp"

namespace threadmap {

PictureResult build_picture(const ResolvedLaunch& r, const PictureOptions& o, MapPicture* previous) {
    PictureResult out;
    auto layout = make_layout(r.workload, r.launch, o.blocks_per_row, o.max_side);
    if (!layout.layout) {
        out.error = layout.problem;
        return out;
    }
    MapPicture p;
    p.launch = r;
    if (previous) {
        p.emulation = std::move(previous->emulation);
        emulate_into(r.workload, r.launch, p.emulation);
    } else {
        p.emulation = emulate(r.workload, r.launch);
    }
    p.layout = *layout.layout;
    const size_t cells = size_t(p.layout.width) * p.layout.height;
    if (previous && previous->colors.size() == cells)
        p.colors = std::move(previous->colors);
    else
        p.colors = ZeroedBuffer<Rgba8>(cells);
    recolor(p, o.mode, o.palette);
    out.picture = std::move(p);
    return out;
}

void recolor(MapPicture& p, ColorMode mode, Palette palette) {
    p.color = {mode, palette, p.launch.launch.grid, p.launch.launch.block};
    colorize_layout(p.layout, p.emulation.map, p.color, p.colors.data());
}

}  // namespace threadmap
