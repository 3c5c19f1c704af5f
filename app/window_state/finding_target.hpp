// Where a finding lies on the map, and the links between the source's lines and the map's
// cells that the Findings tab, the Editor and the map share: a click on a finding pins its
// cell; a hovered cell lights the lines of its findings; a hovered line outlines its cells.
#pragma once

#include <glm/vec2.hpp>
#include <map>
#include <optional>
#include <vector>

#include "app/window_state/app_state.hpp"

namespace threadmap {

// Where a finding lies: an element of one of the kernel's arrays (of one block's copy, for a
// __shared__ one), a cell past the mapped array's end that the map draws (an out-of-bounds
// access: its index is the flat one), or for a divergent barrier a cell on the map of a thread
// of its block. None where the map draws nothing of it.
std::optional<AppState::FindingTarget> finding_target(const MapPicture& picture, const Finding& f);

// Whether the map on screen draws the target (a tutorial kernel's map: always).
bool on_map(const MapPicture& picture, const AppState::FindingTarget& t);

// The source lines of the listed findings that lie on `cell` of the map, each once, in order.
std::vector<int> finding_lines_at(const MapPicture& picture, glm::ivec2 cell);

// The map's cells of the listed findings at source line `line`.
std::vector<glm::ivec2> finding_cells_of_line(const MapPicture& picture, int line);

// The listed findings per source line (the Editor's gutter).
std::map<int, size_t> findings_per_line(const MapPicture& picture);

}  // namespace threadmap
