// The window's kept pictures; see picture_cache.hpp.
#include "app/window_state/picture_cache.hpp"

#include <algorithm>

#include "app/launch/model_launch.hpp"

namespace threadmap {

namespace {

bool same_model(const std::optional<ModelKernel>& a, const std::optional<ModelKernel>& b) {
    if (a.has_value() != b.has_value()) return false;
    // A learner's kernel compiled again is another kernel, even where its spec lands at the same
    // address: the owner (its compiled code) tells them apart.
    return !a || (*a == *b && a->owner == b->owner && a->expected == b->expected);
}

const Executor* executor_of(const PictureOptions& o) { return o.backend ? o.backend->executor.get() : nullptr; }

uint64_t cells(const MapPicture& picture) {
    return element_count(picture.launch.workload) +
           (picture.compare ? element_count(picture.compare->launch.workload) : 0);
}

// A lesson changes what its launch builds only through its comparison (in the options) and, for
// one of the tutorial's kernels, which of the registry's runs it in the kernel model (a store in
// the loop): a launch typed back to the lesson's own, the lesson left, is the same build.
bool same_lesson_build(const ResolvedLaunch& a, const ResolvedLaunch& b) {
    return a.model || a.preset == b.preset || model_launch_for(a).spec == model_launch_for(b).spec;
}

}  // namespace

bool same_build(const ResolvedLaunch& a, const PictureOptions& ao, const ResolvedLaunch& b, const PictureOptions& bo) {
    return a.workload == b.workload && a.launch == b.launch && same_model(a.model, b.model) &&
           same_lesson_build(a, b) && executor_of(ao) == executor_of(bo) && ao.check_findings == bo.check_findings &&
           ao.findings_any_size == bo.findings_any_size && ao.compare.kernel == bo.compare.kernel &&
           ao.compare.array == bo.compare.array && ao.max_side == bo.max_side && ao.max_cells == bo.max_cells;
}

std::optional<MapPicture> PictureCache::take(const ResolvedLaunch& launch, const PictureOptions& options,
                                             bool with_memory) {
    const auto it = std::find_if(kept_.begin(), kept_.end(), [&](const Kept& k) {
        return same_build(k.picture.launch, k.options, launch, options) &&
               (!with_memory || memory_ready(k.picture.memory, options.memory));
    });
    if (it == kept_.end()) return std::nullopt;
    MapPicture picture = std::move(it->picture);
    kept_.erase(it);
    return picture;
}

bool PictureCache::keeps(const MapPicture& picture) {
    return picture.result.device_map == nullptr && cells(picture) <= kMaxElements;
}

std::optional<MapPicture> PictureCache::keep(MapPicture picture, const PictureOptions& options) {
    if (!keeps(picture)) return picture;
    // A picture of the same build replaces the one kept (it may carry a memory view the other lacks).
    std::erase_if(kept_,
                  [&](const Kept& k) { return same_build(k.picture.launch, k.options, picture.launch, options); });
    kept_.push_back({std::move(picture), options});
    uint64_t total = 0;
    for (const Kept& k : kept_) total += cells(k.picture);
    std::optional<MapPicture> out;
    while (kept_.size() > kMaxPictures || total > kMaxElements) {
        total -= cells(kept_.front().picture);
        out = std::move(kept_.front().picture);
        kept_.pop_front();
    }
    return out;
}

}  // namespace threadmap
