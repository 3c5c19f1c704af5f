// A text file compiled into the binary (shaders, lessons): see cmake/Embed.cmake.
#pragma once

namespace threadmap {

struct EmbeddedFile {
    const char* name;  // base name, e.g. "cell_grid.frag"
    const char* text;
};

}  // namespace threadmap
