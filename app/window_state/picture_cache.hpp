// The last few pictures the window replaced, by what they were built from: a learner who goes
// back to a launch (32×32 blocks, then 16×16, then 32×32 again, as a lesson asks) or a teacher
// switching between two launches on a projector sees it again at once instead of waiting for
// the same model runs. Only host pictures up to a size are kept (a GPU's map lives on the device;
// a 16M-element map's buffers are the next job's to refill).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "app/window_state/map_picture.hpp"

namespace threadmap {

class PictureCache {
  public:
    static constexpr size_t kMaxPictures = 4;
    static constexpr uint64_t kMaxElements = uint64_t(1) << 22;  // all kept pictures' cells together

    // Takes the picture built from `launch` with `options` out of the cache, if one is kept:
    // the same kernel, parameters, lesson, launch, view of the kernel and backend, and the same
    // comparison, findings and layout limits (its colours and rows may differ: the caller
    // recolours and lays it out again). `with_memory`: only one whose memory view was computed (with every site
    // when options.memory asks for them).
    std::optional<MapPicture> take(const ResolvedLaunch& launch, const PictureOptions& options, bool with_memory);
    // Keeps a replaced picture built with `options`; returns what is not kept (the picture when
    // it may not be, else the oldest one it pushed out), for its buffers to be refilled.
    std::optional<MapPicture> keep(MapPicture picture, const PictureOptions& options);
    void clear() { kept_.clear(); }
    // Whether keep would keep it (a host map of at most kMaxElements cells, its comparison's included).
    static bool keeps(const MapPicture& picture);
    size_t size() const { return kept_.size(); }

  private:
    struct Kept {
        MapPicture picture;
        PictureOptions options;
    };
    std::deque<Kept> kept_;  // oldest first
};

// Whether a picture built for `a` with `ao` is the one `b` with `bo` would build.
bool same_build(const ResolvedLaunch& a, const PictureOptions& ao, const ResolvedLaunch& b, const PictureOptions& bo);

}  // namespace threadmap
