// The inspector's touchers of the pinned element; see touchers_job.hpp.
#include "app/window_state/touchers_job.hpp"

#include "app/launch/model_launch.hpp"

namespace threadmap {

TouchersJob::~TouchersJob() {
    if (cancel) *cancel = true;
}

void want_touchers(TouchersJob& job, const MapPicture& picture, std::optional<uint64_t> element) {
    const uint64_t wanted = element ? picture.serial : 0;
    if (job.picture == wanted && (!element || job.element == *element)) return;
    if (job.cancel) *job.cancel = true;
    if (job.run.valid()) job.run.wait();  // cancelled: it stops within 65,536 accesses (a child: killed)
    job.run = {};
    job.cancel.reset();
    job.picture = wanted;
    job.element = element.value_or(0);
    job.result.reset();
    job.error.clear();
    if (!element) return;
    ModelLaunch model_launch = model_launch_for(picture.launch);
    model_launch.keep_records = 0;  // only the element's touchers
    model_launch.watch_array = model_launch.spec->array_index(picture.launch.mapped_array());
    model_launch.watch_element = *element;
    job.cancel = std::make_shared<std::atomic<bool>>(false);
    // The launch (and a learner's compiled kernel: ModelLaunch::keep) lives in the lambda.
    job.run = std::async(std::launch::async,
                         [model_launch, cancel = job.cancel] { return run_model(model_launch, cancel.get()); });
}

void poll_touchers(TouchersJob& job) {
    using namespace std::chrono_literals;
    if (!job.run.valid() || job.run.wait_for(0s) != std::future_status::ready) return;
    Outcome<ModelResult> r = job.run.get();
    if (r.value && r.value->watched)
        job.result = std::move(*r.value->watched);
    else
        job.error = r.value ? "the model did not watch it" : r.error;
}

}  // namespace threadmap
