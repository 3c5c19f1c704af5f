// What the kernel model found on one element of a global array, as bits: the model fills
// them (ArrayResult::found), the map's Findings colour mode paints them.
#pragma once

#include <cstdint>

namespace threadmap {

enum ElementFinding : uint8_t { kFoundRace = 1, kFoundHazard = 2 };

}  // namespace threadmap
