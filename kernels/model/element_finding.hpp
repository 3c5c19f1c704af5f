// What the kernel model found on one element of a global array, as bits: the model fills
// them (ArrayResult::found), the map's Findings colour mode paints them.
#pragma once

#include <cstdint>

namespace threadmap {

// kFoundUninit: shared memory read before its block wrote it.
// kFoundOutOfBounds: a cell past the array's end that an out-of-bounds access touched (the
// map draws those cells; the model's per-element bits never carry it). kFoundBarrier*: the
// cell's first toucher is a thread of the block where the launch ended at a divergent barrier
// (or warp call), and it waited there, waited elsewhere, or had exited (the map adds them from
// ModelResult::diverged). kFoundUndefinedShuffle: the cell's first toucher took an undefined
// value through a warp shuffle from a lane that took no part (an uninitialised read that names
// no array; the map adds it from ModelResult::undefined_shuffles).
enum ElementFinding : uint8_t {
    kFoundRace = 1,
    kFoundHazard = 2,
    kFoundUninit = 4,
    kFoundOutOfBounds = 8,
    kFoundBarrierWaiting = 16,
    kFoundBarrierElsewhere = 32,
    kFoundBarrierExited = 64,
    kFoundUndefinedShuffle = 128,
};

}  // namespace threadmap
