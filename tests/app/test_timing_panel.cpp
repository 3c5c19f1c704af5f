// The timing panel's data: modeled runs say "modeled" on every GPU figure, recordings say
// "recorded" and where from, a bad or mismatched recording leaves the panel as it was, and
// the sweep runs off the UI thread and finds its crossover.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <imgui.h>

#include "app/window_state/app_state.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "tests/app/headless_imgui.hpp"
#include "tests/app/lesson_launch.hpp"
#include "app/window_state/launch_update.hpp"
#include "app/panels/timing_panel.hpp"
#include "app/launch/device_profiles.hpp"
#include "app/reports/timing_report.hpp"

using namespace threadmap;

namespace {

// Waits on the jobs themselves; two minutes is a cap that fails loudly, not a schedule.
void wait_for_jobs(TimingState& t) {
    constexpr auto kCap = std::chrono::minutes(2);
    if (t.run.valid()) REQUIRE(t.run.wait_for(kCap) == std::future_status::ready);
    if (t.sweep_job.valid()) REQUIRE(t.sweep_job.wait_for(kCap) == std::future_status::ready);
    poll_timing_jobs(t);
    REQUIRE_FALSE(t.run.valid());
    REQUIRE_FALSE(t.sweep_job.valid());
}

// The lesson open, its map computed, the Timing panel on the model.
void open_modeled(AppState& state, const char* lesson) {
    select_lesson(state, lesson);
    finish_picture_job(state, 16384, kMaxDrawnCells);
    state.timing.source = TimingSource::Modeled;
}

// One headless ImGui frame with the Timing panel in it.
void draw_panel_once(AppState& state) {
    ImGui::NewFrame();
    ImGui::Begin("timing");
    draw_timing_panel(state);
    ImGui::End();
    ImGui::Render();
}

}  // namespace

TEST_CASE("a modeled run labels every GPU figure modeled and the CPU measured") {
    TimingState t;
    t.source = TimingSource::Modeled;
    REQUIRE(start_timing_run(t, lesson_launch("seed-matmul-fixed"), std::nullopt));
    CHECK_FALSE(start_timing_run(t, lesson_launch("seed-matmul-fixed"), std::nullopt));  // one at a time
    wait_for_jobs(t);
    REQUIRE(t.current);
    for (const auto& s : t.current->stages) CHECK(s.origin == "modeled");
    CHECK(t.current->cpu_reference.origin == "measured");
    const auto copies = gpu_seconds_per_launch(*t.current, false), resident = gpu_seconds_per_launch(*t.current, true);
    REQUIRE(copies);
    REQUIRE(resident);
    CHECK(*resident < *copies);  // sharing the copies over 10 launches
    // A second run moves the first into the history.
    REQUIRE(start_timing_run(t, lesson_launch("seed-matmul-fixed"), std::nullopt));
    wait_for_jobs(t);
    CHECK(t.history.size() == 1);
}

TEST_CASE("recordings - recorded on DEVICE and DATE - bad or mismatched files keep the panel as it was") {
    const std::string dir = "/tmp/threadmap-recording-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const ResolvedLaunch resolved = lesson_launch("seed-matmul-fixed");
    TimingRequest q{resolved, BackendChoice{}, &device_profiles().front(), false, false, 3};
    const Outcome<TimingReport> measured = measure_timing(q);
    REQUIRE(measured.value);
    nlohmann::json bench = to_json(*measured.value);
    bench["device"] = "NVIDIA H200 (cc 9.0)";  // as a GPU machine would have written it
    bench["date"] = "2026-11-29T10:00:00Z";
    std::ofstream(dir + "/good.json") << bench.dump();
    std::ofstream(dir + "/broken.json") << "{ \"device\": ";
    std::ofstream(dir + "/nostages.json") << R"({"device":"x","kernel":"matmul","date":"d","shape":[300,300]})";
    // Fields of the wrong type or range are refused with the field named, never a crash.
    const auto with = [&](const char* file, const char* key, const nlohmann::json& value) {
        nlohmann::json j = bench;
        j[key] = value;
        std::ofstream(dir + file) << j.dump();
    };
    with("/flops-text.json", "flops", "many");
    with("/repeats-text.json", "repeats", "ten");
    with("/model-number.json", "model", 7);
    nlohmann::json huge = bench;
    huge["stages"][0]["seconds_median"] = 1e308;
    huge["stages"][0]["seconds_max"] = 1e308;
    huge["stages"][1]["seconds_min"] = 5;  // min > median
    std::ofstream(dir + "/absurd.json") << huge.dump();
    nlohmann::json far = bench;  // consistent, finite, but no real run's: an axis of 309-digit labels
    for (const char* k : {"seconds_min", "seconds_median", "seconds_max"}) far["stages"][0][k] = 1.7e308;
    std::ofstream(dir + "/far.json") << far.dump();
    nlohmann::json negative = bench;
    negative["stages"][0]["bytes"] = -5;
    std::ofstream(dir + "/negative-bytes.json") << negative.dump();
    nlohmann::json renamed = bench;
    renamed["stages"][0]["name"] = "warp-drive";
    std::ofstream(dir + "/stage-name.json") << renamed.dump();
    std::filesystem::create_directory(dir + "/a-directory.json");
    REQUIRE(::mkfifo((dir + "/fifo.json").c_str(), 0600) == 0);  // no writer: opening it would block
    std::ofstream(dir + "/too-big.json") << std::string(5 << 20, ' ');
    nlohmann::json wide = bench;  // no GPU runs a block of 2,000 threads
    wide["launch"]["block"] = {2000, 1, 1};
    std::ofstream(dir + "/block-2000.json") << wide.dump();
    nlohmann::json twice = bench;
    twice["stages"].push_back(twice["stages"][0]);
    std::ofstream(dir + "/stage-twice.json") << twice.dump();
    nlohmann::json implementation = bench;
    implementation["cpu_reference"]["implementation"] = 3;
    std::ofstream(dir + "/implementation-number.json") << implementation.dump();

    TimingState t;
    t.recording_path = dir + "/good.json";
    load_recording_into(t, resolved);
    REQUIRE(t.message.empty());
    REQUIRE(t.current);
    CHECK(t.current->recorded_from == "NVIDIA H200 (cc 9.0), 2026-11-29T10:00:00Z");
    for (const auto& s : t.current->stages) CHECK(s.origin == "recorded");
    CHECK(t.current->cpu_reference.origin == "recorded");
    const nlohmann::json before = to_json(*t.current);

    for (const auto& [bad, field] :
         {std::pair{"/broken.json", "not JSON"}, std::pair{"/nostages.json", "'stages'"},
          std::pair{"/missing.json", "cannot read"}, std::pair{"/flops-text.json", "'flops'"},
          std::pair{"/repeats-text.json", "'repeats'"}, std::pair{"/model-number.json", "'model'"},
          std::pair{"/absurd.json", "'stages["},
          std::pair{"/implementation-number.json", "'cpu_reference.implementation'"},
          std::pair{"/far.json", "must be at most 86400"}, std::pair{"/negative-bytes.json", "'stages[0].bytes'"},
          std::pair{"/stage-name.json", "must be alloc, h2d, kernel, d2h or cpu"},
          std::pair{"/a-directory.json", "is a directory"}, std::pair{"/fifo.json", "not a regular file"},
          std::pair{"/too-big.json", "above the 4194304 a recording may have"},
          std::pair{"/block-2000.json", "'launch' is not one CUDA runs"},
          std::pair{"/stage-twice.json", "a second '"}}) {
        t.recording_path = dir + bad;
        load_recording_into(t, resolved);
        CAPTURE(t.message);
        CHECK(t.message.find(field) != std::string::npos);
        CHECK(to_json(*t.current) == before);
    }
    t.recording_path = dir + "/good.json";
    load_recording_into(t, lesson_launch("seed-increment"));  // another kernel
    CHECK(t.message.find("the current launch is increment") != std::string::npos);
    CHECK(to_json(*t.current) == before);
    std::filesystem::remove_all(dir);
}

TEST_CASE("the sweep runs off the UI thread - reports progress - and can be cancelled") {
    TimingState t;
    t.source = TimingSource::Modeled;
    REQUIRE(start_sweep(t, lesson_launch("seed-increment"), std::nullopt));
    wait_for_jobs(t);
    REQUIRE(t.sweep);
    CHECK(t.sweep->points.size() == 30);
    CHECK(t.sweep_done == 30);
    CHECK(t.sweep->gpu_origin == "modeled");
    TimingState c;
    c.source = TimingSource::Modeled;
    REQUIRE(start_sweep(c, lesson_launch("seed-increment"), std::nullopt));
    c.sweep_cancel = true;  // heard by the sweep's own thread while this one goes on
    wait_for_jobs(c);
    REQUIRE(c.sweep);
    CHECK(c.sweep->points.size() < 30);
    CHECK(c.sweep->cancelled);
}

TEST_CASE("any kernel of a lesson sweeps - a recording does not, and says why") {
    TimingState t;
    t.source = TimingSource::Modeled;
    const ResolvedLaunch histogram = lesson_launch("histogram-atomic");
    REQUIRE(histogram.model);
    REQUIRE(start_sweep(t, histogram, std::nullopt));
    wait_for_jobs(t);
    REQUIRE(t.sweep);
    CHECK(t.sweep->points.size() == 30);
    CHECK(t.sweep->points.back().elements == uint64_t(1) << 24);  // values counted, into the same bins
    CHECK(t.sweep->cpu == "C++ reference, 1 thread (a check of results, not tuned)");
    TimingState recorded;
    recorded.source = TimingSource::Recorded;
    CHECK_FALSE(start_sweep(recorded, histogram, std::nullopt));
    CHECK(recorded.message.find("a recording is one run") != std::string::npos);
}

TEST_CASE("the timing panel draws a run - its history - and a sweep chart in a headless ImGui frame") {
    HeadlessImGuiContext context(1200, 900);
    AppState state;
    open_modeled(state, "seed-matmul-fixed");
    REQUIRE(start_timing_run(state.timing, state.picture->launch, std::nullopt));
    REQUIRE(start_sweep(state.timing, lesson_launch("seed-matmul-fixed"), std::nullopt));
    wait_for_jobs(state.timing);
    REQUIRE(start_timing_run(state.timing, state.picture->launch, std::nullopt));
    wait_for_jobs(state.timing);
    for (bool resident : {false, true}) {
        state.timing.resident = resident;
        state.timing.first_launch = resident;
        draw_panel_once(state);
    }
    CHECK(state.widget_rects.count("timing-run") == 1);
    CHECK(state.timing.history.size() == 1);
    REQUIRE(state.timing.sweep);
    CHECK(state.timing.sweep->resident.elements.has_value());
}

TEST_CASE("timing lessons set the panel up - and the numbers can be saved as JSON and CSV") {
    AppState state;
    select_lesson(state, "timing-pinned");
    CHECK(state.timing.pinned);
    CHECK(state.timing.source == TimingSource::Modeled);
    CHECK(device_profiles()[size_t(state.timing.profile)].name == "laptop-gpu");
    CHECK(state.open_view == CentreView::Timing);  // the lesson shows its view in the centre
    AppState map_lesson;
    select_lesson(map_lesson, "seed-matmul");
    CHECK(map_lesson.open_view == CentreView::Map);
    finish_picture_job(state, 16384, kMaxDrawnCells);
    REQUIRE(start_timing_run(state.timing, state.picture->launch, std::nullopt));
    wait_for_jobs(state.timing);
    // 64 MiB over the laptop's pinned 12.2 GB/s, plus 10 us.
    REQUIRE(state.timing.current);
    CHECK(state.timing.current->stages[0].seconds_median == doctest::Approx(1e-5 + 67108864 / 12.2e9));
    select_lesson(state, "timing-first-launch");
    CHECK(state.timing.first_launch);
    CHECK_FALSE(state.timing.pinned);

    const std::string dir = "/tmp/threadmap-timing-save-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    REQUIRE(start_sweep(state.timing, state.picture->launch, std::nullopt));
    wait_for_jobs(state.timing);
    const std::string said = save_timing_numbers(state.timing, dir, 0);
    CHECK(said.rfind("saved ", 0) == 0);
    int json_files = 0, csv_files = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
        const std::string name = f.path().filename();
        json_files += name.size() > 5 && name.substr(name.size() - 5) == ".json";
        csv_files += name.size() > 4 && name.substr(name.size() - 4) == ".csv";
    }
    CHECK(json_files == 1);
    CHECK(csv_files == 1);
    CHECK(save_timing_numbers(state.timing, "/proc/no-such-folder", 0).rfind("cannot write", 0) == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("the Timing tab times a lesson's registry kernel with the model - modeled bars, the C++ reference") {
    HeadlessImGuiContext context(1200, 900);
    AppState state;
    open_modeled(state, "transpose-bank-conflicts");
    REQUIRE(start_timing_run(state.timing, state.picture->launch, std::nullopt));
    wait_for_jobs(state.timing);
    REQUIRE(state.timing.current);
    CHECK(state.timing.message.empty());
    const TimingReport& r = *state.timing.current;
    CHECK(r.kernel == "transpose-tiled");
    for (const auto& s : r.stages) CHECK(s.origin == "modeled");
    CHECK(r.cpu_reference.implementation.find("C++ reference") == 0);
    draw_panel_once(state);  // the bars, and a sweep button it cannot press
}
