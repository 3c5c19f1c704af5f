// The path from a checked launch to the coloured cells on screen: emulate, lay out, colour.
// The window and `threadmap render` both go through it.
#pragma once

#include <optional>
#include <string>

#include "backend_choice.hpp"
#include "colorizer.hpp"
#include "cpu_emulator.hpp"
#include "launch_options.hpp"
#include "map_layout.hpp"

namespace threadmap {

struct MapPicture {
    ResolvedLaunch launch;
    Emulation emulation;
    MapLayout layout;
    ColorContext color;
};

struct PictureOptions {
    ColorMode mode = ColorMode::Block;
    Palette palette = Palette::Standard;
    uint32_t blocks_per_row = 1;  // 1D rows, in blocks
    uint32_t max_side = 16384;    // the GL texture limit
    uint64_t max_cells = kMaxDrawnCells;  // the GL buffer-texture limit
    std::optional<BackendChoice> backend;  // none: the emulator
};

struct PictureResult {
    std::optional<MapPicture> picture;
    std::string error;  // one line, when picture is empty
};

// previous: a picture to take buffers from (a window re-running the same shape).
PictureResult build_picture(const ResolvedLaunch& launch, const PictureOptions& options, MapPicture* previous = nullptr);

// The same map in rows of another number of blocks (1D); false, with the picture unchanged,
// when that layout cannot be drawn.
bool relayout(MapPicture& picture, const PictureOptions& options);

// Another colour mode or palette for the same map (no re-emulation; paint again after).
void recolor(MapPicture& picture, ColorMode mode, Palette palette);

// Writes the picture's colours, layout.width × layout.height RGBA8, row 0 first.
void paint(const MapPicture& picture, Rgba8* out);

}  // namespace threadmap
