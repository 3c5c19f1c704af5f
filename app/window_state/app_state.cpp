// AppState helpers; see app_state.hpp.
#include "app/window_state/app_state.hpp"

#include <algorithm>

#include "app/launch/device_profiles.hpp"
#include "viz/draw/legend.hpp"
#include "app/launch/lessons.hpp"
#include "app/reports/lesson_text.hpp"

namespace threadmap {

std::optional<OccupancyGpu> AppState::occupancy_gpu() const {
    const auto& profiles = device_profiles();
    if (timing.profile < 0 || size_t(timing.profile) >= profiles.size()) return std::nullopt;
    return resolve_occupancy_gpu(profiles[size_t(timing.profile)].name, "", "").value;
}

ColorMode AppState::color_mode() const { return parse_color_mode(settings.color_mode).value_or(ColorMode::Block); }

bool AppState::lesson_figures_pending() const {
    const Lesson* lesson = find_lesson(this->lesson);
    if (!lesson || cached_lesson_figures(*lesson)) return false;
    const auto job = lesson_figure_jobs.find(lesson->name);
    return job != lesson_figure_jobs.end() &&
           job->second.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

std::string lesson_text_now(const AppState& state, const Lesson& lesson, const std::string& text) {
    const auto* figures = cached_lesson_figures(lesson);
    if (!figures && !state.lesson_figure_jobs.count(lesson.name))
        state.lesson_figure_jobs.emplace(lesson.name,
                                         std::async(std::launch::async, [&lesson] { lesson_figures(lesson); }));
    return lesson_text_shown(text, figures);
}

void select_lesson(AppState& state, const std::string& name) {
    LaunchOptions o;
    o.preset = name;
    const Lesson* lesson = find_lesson(name);
    if (lesson && lesson->own_kernel) {
        o.time_limit = std::to_string(state.settings.kernel_seconds);
        o.memory_limit = std::to_string(state.settings.kernel_memory_mb);
    }
    auto r = resolve_launch(o);
    if (!r.value) {
        state.message = r.error;
        return;
    }
    state.edit = *r.value;
    state.lesson = name;
    state.settings.last_preset = name;
    if (lesson) state.timing.program = lesson->program;  // the code shown and timed
    if (lesson && lesson->timing) {                      // set the Timing panel up for the lesson
        const LessonRun run = lesson_run(lesson);
        TimingState& t = state.timing;
        t.source = lesson->timing->source == "measured" ? TimingSource::Measured : TimingSource::Modeled;
        const auto& profiles = device_profiles();
        for (size_t i = 0; i < profiles.size(); ++i)
            if (profiles[i].name == run.profile) t.profile = int(i);
        t.pinned = run.pinned;
        t.resident = run.resident;
        t.first_launch = run.first_launch;
        t.repeats = run.repeats;
    }
    if (lesson && !lesson->occupancy_profile.empty()) {  // the Occupancy tab's GPU
        const auto& profiles = device_profiles();
        for (size_t i = 0; i < profiles.size(); ++i)
            if (profiles[i].name == lesson->occupancy_profile) state.timing.profile = int(i);
    }
    state.pending.apply = true;
    state.requests.fit = true;
    state.pinned_cell.reset();
    state.finding_target.reset();
    state.lesson_pin.reset();
    if (lesson)
        show_lesson_view(state, *lesson);
    else
        state.open_view = CentreView::Map;
}

void show_lesson_view(AppState& state, const Lesson& lesson) {
    const LessonView& v = lesson.view;
    if (!v.array.empty() || !v.access.empty() || !v.phase.empty() || !v.shared_block.empty()) {
        // The array it maps, on the launch as the learner has it now.
        if (const Outcome<void> problem = apply_lesson_view(state.edit, lesson); !problem.done())
            state.message = problem.error;
        else
            state.pending.apply = true;
    }
    state.settings.color_mode = v.color.empty() ? "block" : v.color;
    state.pending.recolor = true;
    state.open_view = centre_view_named(lesson_tab(lesson)).value_or(CentreView::Map);
    if (!v.pin.empty()) state.lesson_pin = AppState::LessonPin{lesson.name, v.pin};
    if (v.run) state.requests.run_timing_for = lesson.name;  // once its map is there (the launch it times)
}

bool shows(const MapPicture& picture, const AppState::FindingTarget& target) {
    const auto& m = picture.launch.model;
    return m && m->array == target.array && (!m->shared() || m->shared_block == target.block);
}

bool map_shows_editor_kernel(const AppState& state) {
    const MapPicture* picture = state.picture ? &*state.picture : nullptr;
    return state.editor.running && picture && picture->launch.model && picture->launch.model->owner &&
           picture->launch.preset.empty();
}

void pin_element(AppState& state, uint64_t element) {
    uint32_t x = 0, y = 0;
    state.picture->layout.cell_of(element, x, y);
    state.pinned_cell = glm::ivec2(int(x), int(y));
    state.view.center = {x + 0.5, y + 0.5};
    state.view.zoom = std::max(state.view.zoom, 24.0);
    state.view_is_fit = false;
}

}  // namespace threadmap
