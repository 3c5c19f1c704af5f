// Launch updates; see launch_update.hpp.
#include "app/window_state/launch_update.hpp"

#include <algorithm>

#include "app/launch/launch_check.hpp"
#include "app/launch/lessons.hpp"

namespace threadmap {

namespace {

using Clock = std::chrono::steady_clock;

bool ready(const std::future<PictureResult>& f) {
    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// The memory view a picture is asked for: none, the mapped array's requests (a memory colour
// mode), or every array's (the Memory tab): three costs.
enum class MemoryAsked { None, MappedArray, EverySite };

MemoryAsked memory_asked(ColorMode mode, bool memory_tab) {
    return memory_tab ? MemoryAsked::EverySite : is_memory_mode(mode) ? MemoryAsked::MappedArray : MemoryAsked::None;
}

MemoryAsked memory_asked(const AppState& state) { return memory_asked(state.color_mode(), state.memory_view_open); }

PictureOptions layout_options(const AppState& state, uint32_t max_side, uint64_t max_cells) {
    PictureOptions o;
    o.mode = state.color_mode();
    o.palette = state.palette();
    o.rows = state.row_width;
    o.max_side = max_side;
    o.max_cells = max_cells;
    o.gpu = state.occupancy_gpu();
    o.memory = state.memory_view_open;
    return o;
}

// What a picture of `launch` is built with now: the controls' layout and colours, the backend,
// the lesson's comparison, and rows that follow the view's shape chosen for the new launch (so
// that its map arrives laid out: laying out millions of cells again would take a frame seconds).
PictureOptions build_options(const AppState& state, const ResolvedLaunch& launch, uint32_t max_side,
                             uint64_t max_cells) {
    PictureOptions o = layout_options(state, max_side, max_cells);
    o.backend = state.backend;
    o.compare = lesson_comparison(launch);
    if (state.auto_blocks_per_row && !is_2d(launch.workload) && state.map_rect.w > 0 && state.map_rect.h > 0)
        o.rows = row_width_for_aspect(launch.workload, launch.launch, state.map_rect.w / state.map_rect.h);
    return o;
}

// Starts computing `launch` on a worker thread, with the buffers of a map no longer shown (or
// the spare ones being faulted in: waited for there, not here).
void start_job(AppState& state, const ResolvedLaunch& launch, uint32_t max_side, uint64_t max_cells) {
    cancel_picture_job(state);
    const PictureOptions o = build_options(state, launch, max_side, max_cells);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::optional<MapPicture> spare = std::move(state.spare);
    state.spare.reset();
    std::future<PictureResult> warming;
    if (!spare) warming = std::move(state.warming_spare);
    auto job = [launch, o, cancel, done, spare = std::move(spare), warming = std::move(warming),
                wake = state.wake_ui]() mutable {
        if (warming.valid())
            if (PictureResult warm = warming.get(); warm.value) spare = std::move(*warm.value);
        PictureResult built = build_picture(launch, o, spare ? &*spare : nullptr, cancel.get());
        if (built.value) prepare_colors(*built.value);  // tens of millions of cells: here, not in a frame
        done->store(true);
        if (wake) wake();
        return built;
    };
    state.picture_job =
        PictureJob{std::async(std::launch::async, std::move(job)), cancel, done, launch, Clock::now(), o};
}

void retire_warming_spare(AppState& state) {
    if (state.warming_spare.valid()) state.retiring.push_back(std::move(state.warming_spare));
}

// A large map the fast emulator made on the host, which no picture cache keeps, is double
// buffered: a second set of buffers of its size is faulted in on a worker while the window
// idles, and the next launch's job fills those (spare_buffers). Without, the first change of a
// 4096² map had no replaced map's buffers to refill.
void warm_spare_buffers(AppState& state) {
    const MapPicture& shown = *state.picture;
    if (state.spare || state.warming_spare.valid() || shown.launch.model || shown.result.device_map ||
        !shown.result.has_host_map() || PictureCache::keeps(shown))
        return;
    const uint64_t elements = shown.result.map.size();
    const uint64_t cells = uint64_t(shown.layout.width) * shown.layout.height;
    state.warming_spare = std::async(std::launch::async, [elements, cells] {
        return PictureResult{spare_buffers(elements, cells), {}};
    });
}

// A new map goes on screen (recoloured and laid out as the controls are now: they may have
// changed while it was computed); a failed one says why and the last map stays.
void show_picture(AppState& state, PictureResult built, const ResolvedLaunch& launch, const PictureOptions& used,
                  uint32_t max_side, uint64_t max_cells) {
    if (!built.value) {
        if (built.cancelled()) return;
        if (state.backend && state.backend->executor && !state.backend->executor->lost().empty()) {
            // The GPU can run nothing more: the emulator takes over for the rest of the session.
            const std::string why = state.backend->executor->lost();
            state.backend = cpu_backend(why);
            state.backend_line = "Backend: CPU emulator (" + why + ")";
            state.picture.reset();  // its map lived on the lost device
            state.spare.reset();
            retire_warming_spare(state);
            state.kept_pictures.clear();
            state.pending.apply = true;
            return;
        }
        state.launch_error = built.error;
        state.finding_target.reset();  // the array it was to show did not come
        return;
    }
    state.launch_error.clear();
    const bool same_shape = state.picture && state.picture->launch.workload == launch.workload;
    // A fitted view fits the new map when it is drawn larger or smaller (cells past the end of a
    // learner's array come and go with the same shape).
    if (state.view_is_fit && state.picture &&
        (state.picture->layout.width != built.value->layout.width ||
         state.picture->layout.height != built.value->layout.height))
        state.requests.fit = true;
    if (state.picture) state.spare = state.kept_pictures.keep(std::move(*state.picture), state.picture_options);
    if (state.spare) retire_warming_spare(state);  // one spare set of buffers is enough
    state.picture = std::move(built.value);
    state.picture_options = used;
    state.last_map_change = AppState::MapChange::Computed;
    state.warp_step.reset();  // its request numbers were the last picture's
    if (state.auto_blocks_per_row) state.row_width = used.rows;
    const PictureOptions now = layout_options(state, max_side, max_cells);
    if (!(now.rows == used.rows)) relayout(*state.picture, now);
    const auto gpu_name = [](const PictureOptions& o) { return o.gpu ? o.gpu->name : std::string(); };
    if (now.mode != used.mode || now.palette != used.palette || gpu_name(now) != gpu_name(used))
        recolor(*state.picture, now.mode, now.palette, now.gpu);
    if (!same_shape) state.pinned_cell.reset();
    if (const auto& t = state.finding_target; t && shows(*state.picture, *t)) {  // the finding's array came
        if (t->element < element_count(state.picture->launch.workload)) pin_element(state, t->element);
        state.finding_target.reset();
    }
    if (const auto& p = state.lesson_pin; p && state.picture->launch.preset == p->lesson) {  // the lesson's map came
        uint64_t element = 0;
        const std::vector<uint64_t> shape = map_shape(state.picture->launch.workload);
        bool inside = p->index.size() == shape.size();
        for (size_t d = 0; inside && d < shape.size(); ++d) {
            inside = p->index[d] < shape[d];
            element = element * shape[d] + p->index[d];
        }
        if (inside) pin_element(state, element);
        state.lesson_pin.reset();
    }
    state.pending.upload = true;
    warm_spare_buffers(state);
}

// A launch the window showed before, kept (PictureCache): on screen again now, laid out and
// coloured as the controls are; false when none is kept.
bool show_kept(AppState& state, const ResolvedLaunch& launch, MemoryAsked memory, uint32_t max_side,
               uint64_t max_cells) {
    const PictureOptions o = build_options(state, launch, max_side, max_cells);
    std::optional<MapPicture> kept = state.kept_pictures.take(launch, o, memory != MemoryAsked::None);
    if (!kept) return false;
    cancel_picture_job(state);
    kept->launch = launch;  // the same build, maybe of a lesson since left (ResolvedLaunch::preset)
    relayout(*kept, o);
    recolor(*kept, o.mode, o.palette, o.gpu);
    show_picture(state, PictureResult{std::move(*kept), {}}, launch, o, max_side, max_cells);
    state.last_map_change = AppState::MapChange::Kept;
    return true;
}

// What a picture's cost per step depends on: the kernel, whether the kernel model or the fast
// emulator draws it (a tutorial kernel's map of another array is the model's), where it runs,
// and which memory view is computed with it.
std::string cost_key(const AppState& state, const ResolvedLaunch& launch, MemoryAsked memory) {
    return launch.kernel_name() + (launch.model ? " in the kernel model" : " emulated") + " on " +
           (state.backend ? state.backend->name : "cpu-emulator") +
           (memory == MemoryAsked::EverySite     ? " with its memory view"
            : memory == MemoryAsked::MappedArray ? " with its mapped array's requests"
                                                 : "");
}

// Learns from a picture that did all it was asked (a memory view or findings skipped as too
// large would teach a cost far below what a smaller launch that computes them takes).
void learn_cost(AppState& state, const MapPicture& picture, MemoryAsked memory, double ms) {
    if (!picture.findings.not_checked.empty() || (memory != MemoryAsked::None && !picture.memory.not_computed.empty()))
        return;
    state.picture_cost[cost_key(state, picture.launch, memory)] =
        ms / double(std::max<uint64_t>(thread_steps(picture.launch), 1));
}

void collect_job(AppState& state, uint32_t max_side, uint64_t max_cells) {
    std::erase_if(state.retiring, [](const std::future<PictureResult>& f) { return ready(f); });
    if (!state.picture_job) return;
    if (state.picture_job->done->load()) state.picture_job->result.wait();  // woken by the job: it is returning
    if (!ready(state.picture_job->result)) return;
    PictureJob job = std::move(*state.picture_job);
    state.picture_job.reset();
    state.last_update_ms = std::chrono::duration<double, std::milli>(Clock::now() - job.started).count();
    PictureResult built = job.result.get();
    // With the frames' share of the cores: more than it would take within one, which errs safe.
    if (built.value)
        learn_cost(state, *built.value, memory_asked(job.options.mode, job.options.memory), state.last_update_ms);
    show_picture(state, std::move(built), job.launch, job.options, max_side, max_cells);
}

// A picture that takes at most this long is computed within the frame, reusing a replaced map's
// buffers: sooner on screen than a worker thread's map (which cannot reuse the buffers on show,
// and shares the cores with the frames), and the frame (10-20 ms of drawing besides, and the
// colouring of up to kPaintInFrameCells cells) stays under 50 ms. Longer ones are computed by a
// worker thread while the window keeps drawing. At 25 ms, once inputs kept no ordering state,
// the coalescing lesson's pictures came within it and its changes took 50-55 ms frames
// (`scripts/bench-lessons.sh build coalescing`); at 15, 32-34 ms.
constexpr double kFrameBudgetMs = 15;
// Before a kernel's first picture says what it costs: work (threads × inner steps) below this
// within the frame, the fast emulator's (about 0.2 s on two cores at most)…
constexpr uint64_t kWorkInFrame = uint64_t(1) << 28;
// …the memory view's and the kernel model's (about 40 ms here)…
constexpr uint64_t kMemoryInFrame = uint64_t(1) << 23;
// …and a kernel with barriers', which switches between its threads' fibers besides (tiled-matmul's
// 8×8 blocks over 200×200, 2^23 steps, took a 90 ms frame).
constexpr uint64_t kFibersInFrame = kMemoryInFrame / 8;
// A kernel model's picture of a kernel that drew none yet: its steps may cost ten times the
// usual (every access of increment-unguarded's 5M threads past its end is a finding: a 417 ms
// frame at 2^23 steps), so only this much before what it costs is known.
constexpr uint64_t kFirstModelInFrame = uint64_t(1) << 20;

// A learner's kernel (the Editor's, a lesson's own) runs in a child process for as long as
// its time limit allows, and its loops are its own: `while (1) {}` takes the whole limit, so
// it never runs within a frame (the window froze for the 5 s default before).
bool off_the_frame(const ResolvedLaunch& resolved) { return resolved.model && resolved.model->owner; }

// Whether the picture of `launch` is computed within this frame: within the work limits above,
// and by what its kernel's last picture took per step, when there was one, within
// kFrameBudgetMs (a shared-memory histogram's took 255 ms frames within the limits). What was
// learnt only ever sends a picture to the worker.
bool fits_frame(const AppState& state, const ResolvedLaunch& launch, MemoryAsked memory) {
    if (off_the_frame(launch) || element_count(launch.workload) > kPaintInFrameCells ||
        lesson_comparison(launch).any())  // two pictures: off the frame
        return false;
    const uint64_t steps = thread_steps(launch);
    const uint64_t in_frame = !launch.model                          ? kWorkInFrame
                              : launch.model->spec->runs_as_fibers() ? kFibersInFrame
                                                                     : kMemoryInFrame;
    if (steps > in_frame || (memory != MemoryAsked::None && steps > kMemoryInFrame)) return false;
    const auto cost = state.picture_cost.find(cost_key(state, launch, memory));
    if (cost == state.picture_cost.end()) return !launch.model || steps <= kFirstModelInFrame;
    return cost->second * double(steps) <= kFrameBudgetMs;
}

}  // namespace

void cancel_picture_job(AppState& state) {
    if (!state.picture_job) return;
    state.picture_job->cancel->store(true);
    state.retiring.push_back(std::move(state.picture_job->result));  // ends within a block
    state.picture_job.reset();
}

void update_picture(AppState& state, uint32_t max_side, uint64_t max_cells) {
    collect_job(state, max_side, max_cells);
    if (!state.pending.any_update()) return;
    if (state.pending.apply) {
        state.pending.apply = state.pending.recolor = state.pending.relayout = false;
        const DeviceLimits limits = state.backend ? state.backend->limits : cc90_profile();
        const CheckedLaunch checked = check_resolved(state.edit, limits);
        if (!checked.value) {
            state.launch_error = checked.error;
            return;
        }
        const MemoryAsked memory = memory_asked(state);
        if (show_kept(state, *checked.value, memory, max_side, max_cells)) return;
        if (!fits_frame(state, *checked.value, memory)) {
            start_job(state, *checked.value, max_side, max_cells);
            return;
        }
        cancel_picture_job(state);
        PictureOptions o = layout_options(state, max_side, max_cells);
        o.backend = state.backend;
        // The buffers of a map no longer shown, or of the shown one where it will not be kept.
        MapPicture* previous = state.spare                                             ? &*state.spare
                               : state.picture && !PictureCache::keeps(*state.picture) ? &*state.picture
                                                                                       : nullptr;
        const auto started = Clock::now();
        PictureResult built = build_picture(*checked.value, o, previous);
        if (built.value)
            learn_cost(state, *built.value, memory,
                       std::chrono::duration<double, std::milli>(Clock::now() - started).count());
        show_picture(state, std::move(built), *checked.value, o, max_side, max_cells);
        return;
    }
    state.pending.recolor = state.pending.relayout = false;
    if (!state.picture) return;
    // A memory view asked for now: computed here when small, with the map on a worker when not.
    if (memory_asked(state) != MemoryAsked::None && !memory_ready(state.picture->memory, state.memory_view_open)) {
        if (off_the_frame(state.picture->launch) || thread_steps(state.picture->launch) > kMemoryInFrame) {
            if (!state.picture_job) start_job(state, state.picture->launch, max_side, max_cells);
            return;
        }
        compute_picture_memory(*state.picture, state.memory_view_open);
        state.last_map_change = AppState::MapChange::Computed;  // its memory view, that is
    } else {
        state.last_map_change = AppState::MapChange::Redrawn;
    }
    relayout(*state.picture, layout_options(state, max_side, max_cells));
    recolor(*state.picture, state.color_mode(), state.palette(), state.occupancy_gpu());
    state.pending.upload = true;
}

void finish_picture_job(AppState& state, uint32_t max_side, uint64_t max_cells) {
    update_picture(state, max_side, max_cells);
    while (state.picture_job || state.pending.apply) {
        if (state.picture_job) state.picture_job->result.wait();
        update_picture(state, max_side, max_cells);
    }
}

}  // namespace threadmap
