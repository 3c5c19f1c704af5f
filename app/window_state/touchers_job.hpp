// The inspector's "touched by": every thread that loaded, stored or made an atomic on the
// pinned element (the first WatchedElement::kListed, then how many), found by the kernel model
// off the UI thread for the picture's launch, and cancelled when the pin or the map changes.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "app/window_state/map_picture.hpp"

namespace threadmap {

struct TouchersJob {
    uint64_t picture = 0;  // MapPicture::serial of the picture asked about (0: none)
    uint64_t element = 0;  // row-major in the mapped array (a __shared__ one: its block's copy)
    std::future<Outcome<ModelResult>> run;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::optional<WatchedElement> result;  // of (picture, element), once found
    std::string error;                     // why it could not be found

    bool running() const { return run.valid(); }
    ~TouchersJob();  // a running search is cancelled
};

// Asks for the touchers of `element` of the picture's mapped array (nothing: none wanted);
// starts a search when that is not what the job holds or runs, cancelling the one that runs.
void want_touchers(TouchersJob& job, const MapPicture& picture, std::optional<uint64_t> element);
// Collects a finished search (call once a frame).
void poll_touchers(TouchersJob& job);

}  // namespace threadmap
