// The panels in a headless ImGui context (no window, no GL): every lesson and colour mode
// draws, inputs change the launch, an invalid launch keeps the last map, settings persist.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <unistd.h>

#include <algorithm>
#include <future>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <bit>
#include <chrono>
#include <fstream>
#include <map>
#include <thread>

#include "app/window/frame_clock.hpp"
#include "app/window_state/export_budget.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "app/window_state/inspector_text.hpp"
#include "tests/app/headless_imgui.hpp"
#include "app/window_state/kernel_editor.hpp"
#include "app/window_state/launch_update.hpp"
#include "viz/draw/legend.hpp"
#include "app/window_state/map_picture.hpp"
#include "app/window_state/picture_cache.hpp"
#include "tests/app/lesson_launch.hpp"
#include "app/launch/lessons.hpp"
#include "app/reports/findings_report.hpp"
#include "app/reports/lesson_text.hpp"
#include "app/window/main_layout.hpp"
#include "app/launch/model_launch.hpp"
#include "app/window/replay.hpp"
#include "app/window_state/settings.hpp"
#include "app/launch/source_launch.hpp"
#include "app/panels/panel_widgets.hpp"
#include "kernels/builtin/registry.hpp"
#include "app/panels/warp_overlay.hpp"

using namespace threadmap;

// A test of learners' kernels, in a build without Clang 15: says why it checks nothing.
#define SKIP_WITHOUT_CLANG()                                                    \
    do {                                                                        \
        if (!source_kernels_available()) {                                      \
            MESSAGE("skipped: this build has no Clang (THREADMAP_SOURCE=OFF)"); \
            return;                                                             \
        }                                                                       \
    } while (false)

namespace {

struct HeadlessUi {
    explicit HeadlessUi(float width = 1600, float height = 900, float scale = 1) : context(width, height, scale) {}
    HeadlessImGuiContext context;
    void frame(AppState& state) {
        finish_picture_job(state, 16384, kMaxDrawnCells);  // the map of this frame's launch, computed
        state.pending.upload = false;
        ImGui::NewFrame();
        MapFrame f;  // the draw callback never runs: nothing is rendered
        draw_main_layout(state, f);
        ImGui::Render();
    }
    // A click on the widget named `name` (remember_rect's names): pressed one frame, released the next.
    void click(AppState& state, const std::string& name) {
        REQUIRE(state.widget_rects.count(name) == 1);
        const ViewRect r = state.widget_rects.at(name);
        ImGui::GetIO().MousePos = ImVec2(r.x + r.w / 2, r.y + r.h / 2);
        ImGui::GetIO().MouseDown[0] = true;
        frame(state);
        ImGui::GetIO().MouseDown[0] = false;
        frame(state);
    }
};

// The text the last frame drew between `left` and `right`, each line followed by `after`, as read
// back from its glyphs' quads (each glyph a quad whose first corner has the glyph's U0, V0 and lies
// the glyph's Y0, scaled, below its line's top; a gap wider than a fifth of the font's size
// between two is a space). " | " keeps a line's words apart from the next line's; " " finds a
// sentence wrapped anywhere.
std::string drawn_text(float left, float right = 1e9f, const char* after = " | ") {
    const ImFont* font = ImGui::GetFont();
    std::map<std::pair<float, float>, const ImFontGlyph*> glyph_of;
    for (const ImFontGlyph& g : font->Glyphs)
        if (g.Visible) glyph_of[{g.U0, g.V0}] = &g;
    std::map<int, std::map<float, std::pair<float, unsigned>>> lines;  // top → left → (right, codepoint)
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l) {
        const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
        for (int i = 0; i + 3 < v.Size; ++i) {
            const auto found = glyph_of.find({v[i].uv.x, v[i].uv.y});
            if (found == glyph_of.end() || v[i].pos.x < left || v[i].pos.x > right || v[i + 2].uv.x <= v[i].uv.x)
                continue;
            const ImFontGlyph& g = *found->second;
            const float scale = (v[i + 2].pos.y - v[i].pos.y) / std::max(g.Y1 - g.Y0, 1e-3f);
            lines[int(std::lround(v[i].pos.y - g.Y0 * scale))][v[i].pos.x] = {v[i + 2].pos.x, g.Codepoint};
            i += 3;
        }
    }
    std::string out;
    for (const auto& [top, glyphs] : lines) {
        float right = -1e9f;
        for (const auto& [x, glyph] : glyphs) {
            if (right > -1e9f && x - right > ImGui::GetFontSize() / 5) out += ' ';
            char utf8[5] = {};
            ImTextCharToUtf8(utf8, glyph.second);
            out += utf8;
            right = glyph.first;
        }
        out += after;
    }
    return out;
}

// A lesson opened in a headless window at its UI scale, its map computed and drawn `frames` times.
void open_lesson(HeadlessUi& ui, AppState& state, const char* id, int frames = 3) {
    state.requests.rescale = false;
    select_lesson(state, id);
    for (int i = 0; i < frames; ++i) ui.frame(state);
}

}  // namespace

namespace {

// Run's compile goes off the UI thread in the window: a test waits for it to be applied.
void finish_editor_compile(threadmap::AppState& state) {
    while (state.editor.compile_job.valid()) {
        state.editor.compile_job.wait();
        threadmap::poll_editor_compile(state);
    }
}

void run_editor_now(threadmap::AppState& state) {
    threadmap::run_editor(state);
    finish_editor_compile(state);
}

}  // namespace

TEST_CASE("every lesson and colour mode draws its panels") {
    HeadlessUi ui;
    for (const auto& l : lessons()) {
        CAPTURE(l.name);
        AppState state;
        state.requests.rescale = false;
        select_lesson(state, l.name);
        for (ColorMode m : all_color_modes()) {
            state.settings.color_mode = std::string(color_mode_name(m));
            state.pending.recolor = true;
            ui.frame(state);
        }
        REQUIRE(state.picture);
        CHECK(state.launch_error.empty());
        CHECK(state.widget_rects.count("blockDim.x") == 1);
        for (ColorMode m : all_color_modes())  // each has its button in the Display panel
            CHECK(state.widget_rects.count("color:" + std::string(color_mode_name(m))) == 1);
        if (l.view.tab == "map")  // a lesson whose point is on the map opens on it, whatever its kind
            CHECK(state.map_rect.w > 100);
        else if (find_lesson(l.name)->timing)  // a timing lesson turns the centre to its Timing view
            CHECK(state.widget_rects.count("timing-run") == 1);
        else if (!find_lesson(l.name)->occupancy_profile.empty())  // an occupancy lesson to its tab
            CHECK(state.widget_rects.count("occupancy-sweep") == 1);
        else if (find_lesson(l.name)->memory)  // a memory lesson to the Memory tab
            CHECK(state.widget_rects.count("memory:lanes") == 1);
        else
            CHECK(state.map_rect.w > 100);
    }
}

namespace {

// How far the widest line of the side column `name` ("left", "right") or of a child of it (the
// right one's tab content) reaches past its content region's width, in pixels, as the last frame
// laid it out (ImGui cuts what does not fit).
float side_column_overflow(const char* name) {
    const std::string child = std::string("/") + name + "_";
    float overflow = -1e9f;
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if (std::string(w->Name).find(child) != std::string::npos && w->Active)
            overflow = std::max(overflow, w->ContentSize.x - w->ContentRegionRect.GetWidth());
    if (overflow == -1e9f) FAIL("no side column named " << name);
    return overflow;
}

}  // namespace

TEST_CASE("at a projector's 1280x720 nothing in the side columns is cut - labels wrap or go above their fields") {
    HeadlessUi ui(1280, 720);
    for (const auto& l : lessons()) {
        CAPTURE(l.name);
        AppState state;
        state.requests.rescale = false;
        select_lesson(state, l.name);
        for (int i = 0; i < 3; ++i) ui.frame(state);  // ContentSize: the last frame's, laid out as measured
        CHECK(side_column_overflow("left") <= 0.5f);
        using Tab = AppState::InfoTab;
        for (Tab tab : {Tab::Stats, Tab::Findings, Tab::Code, Tab::Lessons}) {
            CAPTURE(int(tab));
            state.info_tab = tab;
            for (int i = 0; i < 3; ++i) ui.frame(state);  // a scrollbar that comes takes its width a frame later
            CHECK(side_column_overflow("right") <= 0.5f);
        }
    }
}

// A grid-stride loop covers its array with any grid (the grid-stride lesson's 4 blocks of 32 over
// 500 elements): its button offers one element per thread as another grid, not as the one that
// covers, which the button of a kernel without the loop is.
TEST_CASE("the covering grid's button - a grid-stride loop's says any grid covers, a plain kernel's that it covers") {
    CHECK(covering_grid_words(lesson_launch("grid-stride")) ==
          "gridDim for one element per thread (any grid covers: the loop strides by the grid)");
    CHECK(covering_grid_words(lesson_launch("seed-increment-bug")) ==
          "gridDim = the grid that covers the data for this blockDim");
    CHECK(covering_grid_words(lesson_launch("hello-threads")) ==  // a learner's kernel: what it assumes
          "gridDim for one thread per element of your kernel's largest array");
}

TEST_CASE("the Lessons tab opens on the open lesson - a late one is scrolled into view") {
    HeadlessUi ui(1280, 720);
    AppState state;
    state.requests.rescale = false;
    select_lesson(state, lessons().back().name);
    for (int i = 0; i < 3; ++i) ui.frame(state);
    const auto right_scroll = [] {  // the right column's tab content, which scrolls on its own
        for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
            if (std::string(w->Name).find("/right_") != std::string::npos &&
                std::string(w->Name).find("/tab-content_") != std::string::npos)
                return w->Scroll.y;
        return -1.0f;
    };
    CHECK(right_scroll() == 0);
    ui.click(state, "tab:Lessons");
    for (int i = 0; i < 2; ++i) ui.frame(state);
    CHECK(state.info_tab == AppState::InfoTab::Lessons);
    CHECK(right_scroll() > 1000);  // the last of 33 lessons, far below the first
}

TEST_CASE("presentation mode at a projector's 1280x720 - its launch bar stays in the window at every UI scale") {
    // Lessons whose bar has the covering grid's button, or five-digit grids.
    const char* const bar_lessons[] = {"missing-barrier", "coalescing",         "grid-stride",
                                       "rgb-to-gray",     "seed-matmul",        "warp-shuffle-sum",
                                       "timing-pinned",   "seed-increment-bug", "occupancy-small-blocks"};
    for (const float scale : {1.0f, 1.15f, 1.3225f, 1.52f}) {
        HeadlessUi ui(1280, 720, scale);
        for (const char* lesson : bar_lessons) {
            CAPTURE(scale);
            CAPTURE(lesson);
            AppState state;
            state.requests.rescale = false;
            state.settings.ui_scale = scale;
            state.settings.presentation = true;
            select_lesson(state, lesson);
            for (int i = 0; i < 2; ++i) ui.frame(state);
            for (const char* part : {"lesson:combo", "blockDim.z", "gridDim.z", "colour-mode", "presentation"}) {
                CAPTURE(part);
                REQUIRE(state.widget_rects.count(part) == 1);
                const ViewRect r = state.widget_rects.at(part);
                CHECK(r.x + r.w <= 1280);
            }
            // Every field holds its number whole.
            const ImGuiStyle& style = ImGui::GetStyle();
            for (const auto& [name, value] : {std::pair{"blockDim.x", state.edit.launch.block.x},
                                              std::pair{"gridDim.x", state.edit.launch.grid.x}}) {
                CAPTURE(name);
                CHECK(state.widget_rects.at(name).w >=
                      ImGui::CalcTextSize(std::to_string(value).c_str()).x + 2 * style.FramePadding.x);
            }
            // The lesson's title is in the bar where it has room (at scale 1, on one line).
            if (scale == 1.0f) CHECK(state.widget_rects.at("lesson:combo").w > 8 * ImGui::GetFontSize());
        }
    }
}

TEST_CASE("a lesson's card stays while the learner changes its launch - Show me opens the lesson's launch again") {
    HeadlessUi ui(1280, 720);
    AppState state;
    open_lesson(ui, state, "hello-threads", 2);
    REQUIRE(state.edit.launch.block == Dim3{4, 1, 1});
    // As its Look for asks: blockDim 2, 1, 1.
    state.edit.launch.block = {2, 1, 1};
    mark_launch_edited(state);
    for (int i = 0; i < 2; ++i) ui.frame(state);
    CHECK(state.edit.preset.empty());  // the launch is the learner's now
    CHECK(state.lesson == "hello-threads");
    CHECK(state.widget_rects.count("lesson:show-me") == 1);  // the card is still there
    CHECK(state.picture->launch.launch.block == Dim3{2, 1, 1});
    // Its figures are the lesson's launch's, and it says so.
    const auto says = [&](const std::string& words) {  // the Look for, in the legend or the card, wrapped anywhere
        const auto card = state.widget_rects.find("lesson:look-for");
        for (const ViewRect& r : {state.legend_rect, card == state.widget_rects.end() ? ViewRect{} : card->second}) {
            if (r.w > 0 && drawn_text(float(r.x), float(r.x + r.w), " ").find(words) != std::string::npos) return true;
        }
        return false;
    };
    CHECK(says("on the lesson's own launch"));
    ui.click(state, "lesson:show-me");
    ui.frame(state);
    CHECK(state.edit.preset == "hello-threads");
    CHECK(state.picture->launch.launch.block == Dim3{4, 1, 1});
    CHECK_FALSE(says("on the lesson's own launch"));
    CHECK(says("Look for:"));
}

TEST_CASE("scrolled to the end of missing-barrier's findings, the right column's tabs are still on screen") {
    HeadlessUi ui(1280, 720);
    AppState state;
    state.requests.rescale = false;
    select_lesson(state, "missing-barrier");
    state.info_tab = AppState::InfoTab::Findings;
    for (int i = 0; i < 2; ++i) ui.frame(state);
    REQUIRE(state.widget_rects.count("finding:0") == 1);
    const ViewRect first = state.widget_rects.at("finding:0");
    ImGui::GetIO().MousePos = ImVec2(first.x + first.w / 2, first.y + first.h / 2);
    for (int i = 0; i < 40; ++i) {  // the wheel, turned down to the list's end
        ImGui::GetIO().MouseWheel = -10;
        ui.frame(state);
    }
    ImGui::GetIO().MouseWheel = 0;
    ui.frame(state);
    CHECK(state.widget_rects.count("finding:49") == 1);  // the list's end is on screen…
    CHECK(state.widget_rects.at("finding:49").y < 720);
    for (const char* tab : {"tab:Stats", "tab:Findings", "tab:Code", "tab:Lessons"}) {  // …and so are the tabs
        CAPTURE(tab);
        CHECK(state.widget_rects.at(tab).y >= 0);
    }
}

TEST_CASE("the Stats tab in a narrow column at UI scale 1.5 - no label is broken inside a word") {
    // The right column of a 1280-pixel window at 1.52: "threads launched" beside its number
    // read "thread" / "s launch" / "ed".
    HeadlessUi ui(1280, 720, 1.52f);
    AppState state;
    state.settings.ui_scale = 1.52f;
    open_lesson(ui, state, "grid-vs-block-dim");
    REQUIRE(state.picture);
    REQUIRE(state.widget_rects.count("tab:Stats") == 1);
    const std::string lines = drawn_text(float(state.widget_rects.at("tab:Stats").x));
    CAPTURE(lines);
    const auto has = [&](const std::string& words) { return lines.find(words) != std::string::npos; };  // within a line
    CHECK(has("threads"));
    CHECK(has("launched"));
    CHECK(has("threads active"));
    CHECK(has("2880"));
}

TEST_CASE("missing-guard's Stats - the threads whose only write lies past a's end wrote none of its elements") {
    // They were "threads that did not", beside the map's writes past the end and 24 findings.
    HeadlessUi ui;
    AppState state;
    open_lesson(ui, state, "missing-guard");
    REQUIRE(state.widget_rects.count("tab:Stats") == 1);
    const std::string text = drawn_text(float(state.widget_rects.at("tab:Stats").x), 1e9f, " ");
    CAPTURE(text);
    CHECK(text.find("threads that wrote an element of") != std::string::npos);
    CHECK(text.find("threads that wrote none of its") != std::string::npos);
}

TEST_CASE("the seed matmul's outline of A·B carries its own name - C's sits at the corner they share") {
    HeadlessUi ui(1280, 720);
    AppState state;
    open_lesson(ui, state, "seed-matmul");
    const std::string text = drawn_text(float(state.map_rect.x), float(state.map_rect.x + state.map_rect.w));
    CAPTURE(text);
    CHECK(text.find("A\u00b7B 300\u00d7300 |") != std::string::npos);  // its tag, a line of its own
    CHECK(text.find("C 200\u00d7200") != std::string::npos);
}

TEST_CASE("the occupancy lessons at 1280x720 - the sweep their Look for names is on screen with the timeline") {
    // Under the timeline, the sweep began at y = 686 of 720: only its caption showed.
    for (const char* id : {"occupancy-small-blocks", "occupancy-shared-memory", "occupancy-wave-quantization"}) {
        CAPTURE(id);
        HeadlessUi ui(1280, 720);
        AppState state;
        open_lesson(ui, state, id);
        REQUIRE(state.widget_rects.count("occupancy-sweep") == 1);
        REQUIRE(state.widget_rects.count("occupancy-waves") == 1);
        const ViewRect sweep = state.widget_rects.at("occupancy-sweep"),
                       waves = state.widget_rects.at("occupancy-waves");
        CHECK(sweep.y + sweep.h <= 690);  // above the status bar
        CHECK(waves.y + waves.h <= 690);
        CHECK(sweep.w > 300);
    }
}

TEST_CASE("code wider than its column is cut between a call's name and its arguments, not inside a name") {
    HeadlessImGuiContext imgui;
    ImGui::NewFrame();
    const std::string def = "increment_by_one(an_array):";
    const float width = ImGui::CalcTextSize("increment_by_one(an_arr").x;  // "(an_" fits, "(an_array" not
    CHECK(wrap_to_width(def, width) == "increment_by_one(\nan_array):");   // was "increment_by_one(an_" / "array):"
    CHECK(wrap_to_width("transpose-bank-conflicts", ImGui::CalcTextSize("transpose-bank-con").x) ==
          "transpose-bank-\nconflicts");
    ImGui::EndFrame();
}

TEST_CASE("a legend title wider than its column wraps - it is measured as tall as it is drawn, never cut") {
    HeadlessImGuiContext imgui;
    ImGui::NewFrame();
    Legend legend;
    legend.title = "sectors per store request (log scale)";  // the coalescing lesson's, in a 1280-px margin
    legend.ramp = true;
    legend.ramp_low = "1 sector";
    legend.ramp_high = "32 sectors";
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const float title_w = font->CalcTextSizeA(size, 1e9f, 0, legend.title.c_str()).x;
    const ImVec2 wide = legend_size(legend, font, size, title_w * 2);
    const ImVec2 narrow = legend_size(legend, font, size, title_w * 0.6f);
    CHECK(narrow.x <= title_w * 0.6f);
    CHECK(narrow.y >= wide.y + size);  // a second line of title
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    CHECK(draw_legend(dl, legend, font, size, 0, 0, narrow.x) == doctest::Approx(narrow.y).epsilon(0.01));
    float right = 0;  // nothing drawn reaches past the width it was given
    for (const ImDrawVert& v : dl->VtxBuffer) right = std::max(right, v.pos.x);
    CHECK(right <= narrow.x + 1);
    ImGui::EndFrame();
}

TEST_CASE("a window whose lesson could not open draws its panels - the Code tab says no kernel is chosen") {
    HeadlessUi ui;
    AppState state;  // select_lesson failed (a lesson's own kernel that did not compile): nothing resolved
    state.requests.rescale = false;
    for (int i = 0; i < 3; ++i) ui.frame(state);
    ui.click(state, "tab:Code");  // drawn with nothing to show: it said increment's text before
    ui.frame(state);
    CHECK(!state.picture);
    CHECK(state.widget_rects.count("blockDim.x") == 1);
}

TEST_CASE("an invalid blockDim is explained and the last valid map stays") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    REQUIRE(state.picture);
    state.edit.launch.block = {32, 33, 1};
    state.pending.apply = true;
    ui.frame(state);
    CHECK(state.launch_error.find("1056 threads; a block may have at most 1024") != std::string::npos);
    REQUIRE(state.picture);
    CHECK(state.picture->launch.launch.block == Dim3{32, 1, 1});
    state.edit.launch.block = {64, 1, 1};
    state.pending.apply = true;
    ui.frame(state);
    CHECK(state.launch_error.empty());
    CHECK(state.picture->launch.launch.block == Dim3{64, 1, 1});
}

TEST_CASE("the map under the mouse is inspected - the wheel zooms") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    ui.frame(state);  // the map has its place now
    const ViewRect r = state.map_rect;
    const glm::dvec2 cell_centre = world_to_screen(state.view, r, {4.5, 3.5});
    ImGui::GetIO().MousePos = ImVec2(float(cell_centre.x), float(cell_centre.y));
    ui.frame(state);
    REQUIRE(state.hovered_cell);
    CHECK(*state.hovered_cell == glm::ivec2(4, 3));
    const double zoom = state.view.zoom;
    ImGui::GetIO().MouseWheel = 2;
    ui.frame(state);
    CHECK(state.view.zoom > zoom);
    ImGui::GetIO().MousePos = ImVec2(5, 5);  // over the controls
    ui.frame(state);
    CHECK_FALSE(state.hovered_cell);
}

TEST_CASE("settings - saved atomically in XDG_CONFIG_HOME - a bad file kept aside - bad keys dropped one by one") {
    const std::string dir = "/tmp/threadmap-settings-test-" + std::to_string(::getpid());
    setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    CHECK(config_dir() == dir + "/threadmap");
    Settings s;
    s.ui_scale = 1.75f;
    s.color_mode = "warp";
    s.last_preset = "seed-matmul";
    s.kernel_seconds = 2.5;
    CHECK(save_settings(s).done());
    auto [back, message] = load_settings();
    CHECK(message.empty());
    CHECK(back.ui_scale == doctest::Approx(1.75));
    CHECK(back.color_mode == "warp");
    CHECK(back.last_preset == "seed-matmul");
    CHECK(back.kernel_seconds == 2.5);
    std::ofstream(dir + "/threadmap/settings.json") << "{ not json";
    const auto [bad, bad_note] = load_settings();
    message = bad_note;
    CHECK(message.find("it is not JSON") != std::string::npos);
    CHECK(message.find("kept it as " + dir + "/threadmap/settings.json.bad-") != std::string::npos);
    CHECK(bad.ui_scale == doctest::Approx(1.0));
    // The unreadable file was kept aside, as it was; saving the defaults does not touch it.
    int kept = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/threadmap"))
        if (e.path().filename().string().rfind("settings.json.bad-", 0) == 0) {
            ++kept;
            std::ifstream f(e.path());
            CHECK(std::string(std::istreambuf_iterator<char>(f), {}) == "{ not json");
            std::filesystem::remove(e.path());
        }
    CHECK(kept == 1);
    // One bad key loses only itself.
    std::ofstream(dir + "/threadmap/settings.json")
        << R"({"ui_scale": "big", "color_mode": "warp", "colorblind_palette": 1, "last_preset": "grid-stride"})";
    const auto [partly, partly_note] = load_settings();
    message = partly_note;
    CHECK(message.find("ignored ui_scale (expected a number), colorblind_palette (expected true or false)") !=
          std::string::npos);
    CHECK(partly.color_mode == "warp");
    CHECK(partly.last_preset == "grid-stride");
    CHECK(partly.ui_scale == doctest::Approx(1.0));
    // Numbers outside the field's type are dropped, not converted (the settings fuzzer's find:
    // 2.4e38 into an int was undefined behaviour).
    const SettingsText huge = parse_settings(R"({"export_scale": 2.4e38, "ui_scale": 1e300, "left_width": 300,
                                                 "right_width": 2.5})");
    CHECK(huge.problem.empty());
    REQUIRE(huge.dropped.size() == 2);
    CHECK(huge.dropped[0] == "ui_scale (expected a number)");
    CHECK(huge.dropped[1] == "export_scale (expected a whole number)");
    CHECK(huge.settings.export_scale == 1);
    CHECK(huge.settings.left_width == doctest::Approx(300));
    CHECK(parse_settings(R"({"export_scale": 4.0})").settings.export_scale == 4);
    CHECK(parse_settings(R"({"export_scale": 2.5})").dropped.size() == 1);
    // A learner's kernel's time limit: within 0.1 s and an hour.
    CHECK(parse_settings(R"({"kernel_seconds": 0})").settings.kernel_seconds == Settings::kMinKernelSeconds);
    CHECK(parse_settings(R"({"kernel_seconds": 1e9})").settings.kernel_seconds == Settings::kMaxKernelSeconds);
    // A directory where the file should be: moved aside, and the next save writes a file.
    std::filesystem::remove(dir + "/threadmap/settings.json");
    std::filesystem::create_directory(dir + "/threadmap/settings.json");
    message = load_settings().note;
    CHECK(message.find("is a directory") != std::string::npos);
    CHECK(save_settings(s).done());
    CHECK(std::filesystem::is_regular_file(dir + "/threadmap/settings.json"));
    // The save is atomic: no temporary file stays behind.
    for (const auto& e : std::filesystem::directory_iterator(dir + "/threadmap"))
        CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    std::ofstream(dir + "/threadmap/settings.json") << R"({"ui_scale": 99, "color_mode": "plaid", "export_scale": 3})";
    const Settings clamped = load_settings().settings;
    CHECK(clamped.ui_scale == doctest::Approx(Settings::kMaxUiScale));  // the slider's and Ctrl+='s limit too
    CHECK(clamped.color_mode == "block");
    CHECK(clamped.export_scale == 1);
    std::filesystem::remove_all(dir);
    unsetenv("XDG_CONFIG_HOME");
}

namespace {

// A GPU whose context an error poisoned: every run fails and lost() says why.
class LostGpu final : public Executor {
  public:
    std::string name() const override { return "cuda:lost"; }
    Outcome<LaunchResult> run(const Workload&, const LaunchConfig&, LaunchResult*, const std::atomic<bool>*) override {
        ++runs;
        return {std::nullopt, "cudaErrorIllegalAddress: an illegal memory access was encountered"};
    }
    Outcome<void> fetch_map(LaunchResult&) const override { return done(); }
    std::string lost() const override { return "the CUDA context failed for good (cudaErrorIllegalAddress)"; }
    int runs = 0;
};

}  // namespace

TEST_CASE("a GPU that fails for good hands the window to the emulator - with the reason in the status bar") {
    HeadlessUi ui;
    AppState state;
    auto gpu = std::make_shared<LostGpu>();
    BackendChoice b;
    b.cuda = true;
    b.name = "cuda:lost";
    b.executor = gpu;
    state.backend = b;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    CHECK(gpu->runs == 1);
    REQUIRE(state.picture);  // the map was made after all, by the emulator
    CHECK(state.launch_error.empty());
    REQUIRE(state.backend);
    CHECK_FALSE(state.backend->cuda);
    CHECK(state.backend_line.find("CPU emulator") != std::string::npos);
    CHECK(state.backend_line.find("cudaErrorIllegalAddress") != std::string::npos);
    state.edit.launch.block = {64, 1, 1};  // later launches go to the emulator without asking the GPU
    state.pending.apply = true;
    ui.frame(state);
    CHECK(gpu->runs == 1);
    CHECK(state.picture->launch.launch.block == Dim3{64, 1, 1});
}

TEST_CASE("the Findings tab: the model's findings for the launch on screen - or why a large one is not checked") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    REQUIRE(state.picture);
    CHECK(state.picture->findings.not_checked.empty());
    CHECK(state.picture->findings.list.empty());
    state.edit.launch.block = {32, 2, 1};  // x-only indexing: two threads per element
    state.pending.apply = true;
    ui.frame(state);
    const PictureFindings& f = state.picture->findings;
    CHECK(f.counts[size_t(FindingKind::WriteWriteRace)] == 500);
    CHECK(f.list.size() == PictureFindings::kMaxListed);
    CHECK(f.list.front().kind == FindingKind::WriteWriteRace);
    // The tab lists the first 50, each a link to its element, and counts the rest; the window
    // groups a count's digits, the command line's reports do not.
    state.info_tab = AppState::InfoTab::Findings;
    ui.frame(state);
    std::array<uint64_t, kFindingKinds> many{};
    many[size_t(FindingKind::ReadWriteHazard)] = 86528;
    CHECK(findings_summary(many, true) == "86,528 read-write hazards");
    CHECK(findings_summary(many) == "86528 read-write hazards");
    CHECK(state.widget_rects.count("finding:49") == 1);
    CHECK(state.widget_rects.count("finding:50") == 0);
    state.edit.workload = array_workload(&IncrementBody::kernel, uint64_t(1) << 23);
    state.edit.launch = {{1 << 15, 1, 1}, {256, 1, 1}};
    state.pending.apply = true;
    ui.frame(state);
    CHECK(
        state.picture->findings.not_checked.rfind("This launch is too large to check while the window waits (8,388,608 "
                                                  "thread-steps",
                                                  0) == 0);
}

TEST_CASE("a long status message is shown in full - wrapped below the status line - and the map gives it room") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    ui.frame(state);
    const float alone = state.map_rect.h;
    state.message = "saved x.png";  // fits on the status line: nothing moves
    ui.frame(state);
    CHECK(state.map_rect.h == alone);
    state.message = std::string(600, 'w');  // three lines or more at 1600 pixels
    ui.frame(state);
    CHECK(state.map_rect.h <= alone - 3 * ImGui::GetFontSize());
    CHECK(state.map_rect.h >= alone - 6 * ImGui::GetFontSize());
}

TEST_CASE("exports over the pixel budget are made at a smaller scale - and say so") {
    CHECK(fit_export_scale(1600, 900, 4, 16384).scale == 4);  // 23 megapixels
    CHECK(fit_export_scale(1600, 900, 4, 16384).note.empty());
    const ExportScale big = fit_export_scale(3840, 2160, 4, 16384);  // 4x: 133 megapixels
    CHECK(big.scale == 2);
    CHECK(big.note == "at 2x: 4x would be 15360x8640 pixels, over the 40-megapixel export budget");
    CHECK(fit_export_scale(3840, 2160, 2, 16384).scale == 2);         // 33 megapixels
    const ExportScale tall = fit_export_scale(1000, 5000, 4, 16384);  // 20000 pixels tall
    CHECK(tall.scale == 2);
    CHECK(tall.note == "at 2x: 4x would be 4000x20000 pixels, wider or taller than this GPU's 16384-pixel limit");
    const ExportScale none = fit_export_scale(9000, 9000, 1, 16384);
    CHECK(none.scale == 0);
    CHECK(none.note == "not exported: it would be 9000x9000 pixels, over the 40-megapixel export budget");
}

// A replay drives the window whatever has the display's focus: the frame that learns of a
// focus loss (another window opened on the display) still gets the script's keys.
TEST_CASE("a replay's keys reach the window in a frame where it lost the focus") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    auto replay = Replay::parse("1 key ctrl+s\n2 quit\n", "focus.replay");
    REQUIRE(replay.value);
    ImGui::GetIO().AddFocusEvent(false);  // as GLFW's focus callback reports it, before the frame
    replay.value->inject(state);
    ImGui::NewFrame();
    handle_shortcuts(state);
    ImGui::Render();
    CHECK(state.requests.export_map);  // Ctrl+S: the map's figure asked for
}

TEST_CASE("replay scripts are checked when loaded - FILE:LINE and what was expected") {
    const auto error = [](const std::string& text) { return Replay::parse(text, "s.replay").error; };
    CHECK(error("1 move 10 20\n2 click 5 5\n3 scroll 4 4 -1\n4 key ctrl+s\n5 type 64\n6 wait idle\n7 quit\n").empty());
    CHECK(error("").empty());
    CHECK(error("# a comment\n\n1 click map-area\n").empty());  // a widget by name
    CHECK(error("1 jump 3 4") ==
          "s.replay:1: unknown command 'jump' (move, click, drag, scroll, key, type, drop, resize, screenshot, "
          "state, wait, quit)");
    CHECK(error("1 drop") == "s.replay:1: expected 'drop FILE'");
    CHECK(error("1 click n (elements)\n2 drag 1 2 300 4\n3 resize 1 1\n4 resize 1920 1080\n").empty());
    CHECK(error("1 click 1 2 3").rfind("s.replay:1: expected 'click X Y' (numbers)", 0) == 0);
    CHECK(error("1 drag 1 2 3").rfind("s.replay:1: expected 'drag X1 Y1 X2 Y2'", 0) == 0);
    CHECK(error("1 resize 0 100") == "s.replay:1: expected 'resize WIDTH HEIGHT' (whole numbers from 1 to 16384)");
    CHECK(error("1 resize 100 20000").rfind("s.replay:1: expected 'resize WIDTH HEIGHT'", 0) == 0);
    CHECK(error("1 move 10 20\n2 click x 5").rfind("s.replay:2: expected 'click X Y' (numbers)", 0) == 0);
    CHECK(error("1 scroll 1 2").rfind("s.replay:1: expected 'scroll X Y DY'", 0) == 0);
    CHECK(error("1 scroll 1 2 1e300").rfind("s.replay:1: expected 'scroll X Y DY'", 0) == 0);
    CHECK(error("1 key hyper+q").rfind("s.replay:1: expected 'key [ctrl+][shift+]NAME'", 0) == 0);
    CHECK(error("1 type") == "s.replay:1: expected 'type TEXT'");
    CHECK(error("1 quit now") == "s.replay:1: expected 'quit' alone");
    CHECK(error("0 quit").rfind("s.replay:1: the frame must be a whole number from 1 to 10000000", 0) == 0);
    CHECK(error("1x quit").rfind("s.replay:1: the frame must be", 0) == 0);
    CHECK(error("5").rfind("s.replay:1: expected 'FRAME COMMAND ARGS'", 0) == 0);
    // Not a widget called "nan nan": numbers that are not finite are refused.
    CHECK(error("1 move nan nan") == "s.replay:1: expected finite numbers, not 'nan'");
    CHECK(error("1 scroll 1 2 -inf") == "s.replay:1: expected finite numbers, not '-inf'");
    CHECK(error("1 click inf") == "s.replay:1: expected finite numbers, not 'inf'");
    // Frames go forward (a step at an earlier frame would never run).
    CHECK(error("5 click 1 1\n3 quit") == "s.replay:2: frames go forward: frame 3 comes after frame 5");
    CHECK(error("5 click 1 1\n5 quit").empty());
    // The optional form is for widgets only.
    CHECK(error("1 click? tab:Map\n2 move? n (elements)").empty());
    CHECK(error("1 click? 3 4") == "s.replay:1: expected 'click? WIDGET'");
    CHECK(error("1 key? enter") == "s.replay:1: only 'move?' and 'click?' may be optional");
}

TEST_CASE("a launch at the emulator's caps computes off the UI thread - the last map stays - and can be cancelled") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    REQUIRE(state.picture);
    // 2^30 threads: seconds of emulation. update_picture only starts it.
    state.edit.workload = array_workload(&IncrementBody::kernel, 1000);
    state.edit.launch = {{1u << 20, 1, 1}, {1024, 1, 1}};
    state.pending.apply = true;
    update_picture(state, 16384, kMaxDrawnCells);
    REQUIRE(state.picture_job);
    CHECK(state.busy());
    CHECK(state.picture->launch.launch.block == Dim3{32, 1, 1});  // the last map, still on screen
    cancel_picture_job(state);
    CHECK_FALSE(state.picture_job);
    REQUIRE(state.retiring.size() == 1);
    const PictureResult stopped = state.retiring.front().get();  // returns within a block
    CHECK(stopped.cancelled());
    state.retiring.clear();
    // A new change replaces a running one: only the newest launch reaches the screen.
    state.edit.launch = {{1u << 20, 1, 1}, {1024, 1, 1}};
    state.pending.apply = true;
    update_picture(state, 16384, kMaxDrawnCells);
    state.edit.launch = {{8, 1, 1}, {128, 1, 1}};
    state.pending.apply = true;
    update_picture(state, 16384, kMaxDrawnCells);
    CHECK(state.retiring.size() == 1);
    finish_picture_job(state, 16384, kMaxDrawnCells);
    CHECK(state.picture->launch.launch.block == Dim3{128, 1, 1});
    CHECK(state.launch_error.empty());
    for (auto& f : state.retiring) f.wait();
}

TEST_CASE("a large map is double buffered - the next launch fills buffers faulted in while the window idled") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-increment");
    ui.frame(state);
    REQUIRE(state.picture);
    CHECK_FALSE(state.warming_spare.valid());  // a small map: the picture cache keeps it instead
    // 2^23 elements: more than the cache keeps, computed on a worker.
    const uint64_t n = uint64_t(1) << 23;
    state.edit.workload = array_workload(&IncrementBody::kernel, n);
    state.edit.launch = {{uint32_t(n / 256), 1, 1}, {256, 1, 1}};
    state.pending.apply = true;
    finish_picture_job(state, 16384, kMaxDrawnCells);
    REQUIRE(state.picture);
    REQUIRE(state.picture->result.map.size() == n);
    CHECK_FALSE(state.spare);              // nothing was replaced that a job could refill…
    REQUIRE(state.warming_spare.valid());  // …so buffers of its size are being faulted in
    PictureResult warm = state.warming_spare.get();
    REQUIRE(warm.value);
    REQUIRE(warm.value->result.map.size() == n);
    const uint32_t* spare_touches = warm.value->result.map.touches.data();
    state.warming_spare = std::async(std::launch::deferred, [w = std::move(warm)]() mutable { return std::move(w); });
    // The next launch's map is made in them, and is that launch's.
    state.edit.launch = {{uint32_t(n / 128), 1, 1}, {128, 1, 1}};
    state.pending.apply = true;
    update_picture(state, 16384, kMaxDrawnCells);
    REQUIRE(state.picture_job);
    CHECK_FALSE(state.warming_spare.valid());  // the job took it
    finish_picture_job(state, 16384, kMaxDrawnCells);
    REQUIRE(state.picture->launch.launch.block == Dim3{128, 1, 1});
    const ThreadMap& map = state.picture->result.map;
    CHECK(map.touches.data() == spare_touches);
    CHECK(state.picture->result.stats.threads_active == n);
    CHECK(state.picture->result.stats.elements_untouched == 0);
    for (const uint64_t e : {uint64_t(0), uint64_t(129), n / 2 + 7, n - 1}) {
        REQUIRE(map.toucher(e));
        CHECK(map.toucher(e)->block.x == e / 128);
        CHECK(map.toucher(e)->thread.x == e % 128);
    }
    // The replaced map is the spare now: no second set is faulted in beside it.
    CHECK(state.spare);
    CHECK_FALSE(state.warming_spare.valid());
}

TEST_CASE("a launch the window showed before is on screen again at once - a new kernel or backend computes anew") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "coalescing");  // the tutorial's matmul with its memory view: hundreds of ms a run
    ui.frame(state);
    REQUIRE(state.picture);
    REQUIRE(state.picture->memory.computed);
    const uint64_t first = state.picture->serial;
    const LaunchConfig lesson = state.edit.launch;
    const auto change_to = [&](const LaunchConfig& launch) {
        state.edit.launch = launch;
        state.pending.apply = true;
        update_picture(state, 16384, kMaxDrawnCells);
    };
    change_to({{13, 13, 1}, {16, 16, 1}});
    finish_picture_job(state, 16384, kMaxDrawnCells);
    const uint64_t second = state.picture->serial;
    CHECK(second != first);
    // Back to the lesson's launch: the kept picture, in this very update, no job.
    change_to(lesson);
    CHECK_FALSE(state.picture_job);
    REQUIRE(state.picture);
    CHECK(state.picture->serial == first);
    CHECK(state.picture->launch.launch == lesson);
    CHECK(state.picture->memory.computed);
    CHECK(state.pending.upload);
    CHECK(state.last_map_change == AppState::MapChange::Kept);  // the status bar says it was kept
    // And forth: the 16×16 one was kept when it was replaced.
    change_to({{13, 13, 1}, {16, 16, 1}});
    CHECK(state.picture->serial == second);
    // A launch never shown is computed.
    change_to({{8, 8, 1}, {32, 32, 1}});
    finish_picture_job(state, 16384, kMaxDrawnCells);
    CHECK(state.last_map_change == AppState::MapChange::Computed);
    // Another colour mode: the same map redrawn, not a new one (the status bar said "map
    // updated in 0 ms" after a UI scale's relayout); the time the map took to compute stays
    // beside the redraw's (a lesson whose view recolours its first map said only "redrawn").
    state.last_update_ms = 123;
    state.last_redraw_ms = -1;  // not written yet: the redraw must write its own time
    state.settings.color_mode = "lane";
    state.pending.recolor = true;
    FrameClock clock;
    clock.before_update(state);
    update_picture(state, 16384, kMaxDrawnCells);
    clock.after_update(state, true);
    CHECK(state.last_map_change == AppState::MapChange::Redrawn);
    CHECK(state.last_update_ms == 123);
    CHECK(state.last_redraw_ms >= 0);  // written by the redraw, not left at -1
    CHECK(state.picture->serial != first);
    CHECK(state.picture->serial != second);
    // Another backend (the same emulator, chosen again): nothing it kept is its.
    state.backend = cpu_backend("chosen again");
    change_to(lesson);
    finish_picture_job(state, 16384, kMaxDrawnCells);
    CHECK(state.picture->serial != first);
}

TEST_CASE("a kernel whose last picture took long computes its next one on a worker - a quick one within the frame") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "histogram-atomic");
    ui.frame(state);
    REQUIRE(state.picture);
    // The window learnt what a picture of this kernel costs per thread-step.
    REQUIRE(state.picture_cost.size() == 1);
    const std::string key = state.picture_cost.begin()->first;
    CHECK(key.find("histogram-atomic in the kernel model on cpu-emulator") == 0);
    const auto change_block = [&](uint32_t x) {
        state.edit.launch.block.x = x;
        state.pending.apply = true;
        update_picture(state, 16384, kMaxDrawnCells);
    };
    // What it learnt depends on how busy the machine was (a CI run building beside the tests
    // once made the first picture slow enough to send the next to a worker): as if it were quick.
    state.picture_cost[key] = 1e-9;
    change_block(128);
    CHECK_FALSE(state.picture_job);  // small: computed within the frame
    CHECK(state.picture->launch.launch.block.x == 128);
    // Had its last picture taken a second per step (a frame frozen that long), the next one
    // is computed while the window keeps drawing, the last map on screen meanwhile.
    state.picture_cost[key] = 1000;
    // The job wakes the window's frame loop (which waits between frames while a map computes)
    // as its map is ready, and the frame it wakes shows that map.
    std::atomic<int> wakes = 0;
    state.wake_ui = [&wakes] { ++wakes; };
    change_block(64);
    REQUIRE(state.picture_job);
    CHECK(state.picture->launch.launch.block.x == 128);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (wakes == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    REQUIRE(wakes == 1);
    update_picture(state, 16384, kMaxDrawnCells);
    CHECK_FALSE(state.picture_job);
    CHECK(state.picture->launch.launch.block.x == 64);
    CHECK(wakes == 1);
    state.wake_ui = nullptr;
    CHECK(state.picture_cost[key] < 1000);  // and learnt again from that one
    // What one way of drawing it costs says nothing of another's: the memory view asked for
    // is another cost, and a launch past the old limits never computes within the frame.
    state.memory_view_open = true;
    change_block(32);
    CHECK(state.picture_cost.size() == 2);
    state.picture_cost[key] = 1e-12;  // as if free
    state.memory_view_open = false;
    state.edit.model->params[0] = 12000000;  // past the model's 2^23 steps (its map: 16 bins)
    state.edit.launch.grid = state.edit.model->spec->covering_grid(state.edit.model->params, state.edit.launch.block);
    mark_launch_edited(state);
    update_picture(state, 16384, kMaxDrawnCells);
    CHECK(state.launch_error.empty());
    CHECK(state.picture_job);
    cancel_picture_job(state);
    for (auto& f : state.retiring) f.wait();
}

TEST_CASE("a model kernel's first picture is computed within the frame only when small - its cost is not known yet") {
    HeadlessUi ui;
    AppState state;
    ResolvedLaunch launch = default_model_launch(*find_builtin_kernel("increment-unguarded"));
    const auto show = [&](uint32_t grid_x) {
        state.edit = launch;
        state.edit.launch.grid = {grid_x, 1, 1};
        mark_launch_edited(state);
        update_picture(state, 16384, kMaxDrawnCells);
    };
    // Every thread past n = 500 writes past the end of a: a finding per access, ten times the
    // usual cost. 2^21 threads of that froze a frame for a quarter of a second.
    show(65536);  // 2^21 threads of 32
    CHECK(state.picture_job);
    finish_picture_job(state, 16384, kMaxDrawnCells);
    REQUIRE(state.picture);
    CHECK(state.picture->launch.launch.grid.x == 65536);
    state.picture_cost.clear();  // as if the window had just opened
    show(64);                    // 2,048 threads: within the frame
    CHECK_FALSE(state.picture_job);
    CHECK(state.picture->launch.launch.grid.x == 64);
}

TEST_CASE("a lesson's figures are computed beside the window - its card says ... until they come, busy meanwhile") {
    const Lesson& lesson = *find_lesson("coalescing");  // its figures run the seed matmul's memory view twice
    AppState state;
    select_lesson(state, "coalescing");
    // The figures are kept for the process: where an earlier case in the same process computed
    // them (the test binary run whole, not one case a process as ctest runs it), they are there at
    // once and no job starts.
    const bool computed_before = cached_lesson_figures(lesson) != nullptr;
    const std::string now = lesson_text_now(state, lesson, lesson.look_for);  // never waits
    CHECK(now.find('{') == std::string::npos);                                // a figure or "…", no placeholder
    REQUIRE(state.lesson_figure_jobs.count("coalescing") == (computed_before ? 0 : 1));
    if (!computed_before) state.lesson_figure_jobs.at("coalescing").wait();
    CHECK_FALSE(state.lesson_figures_pending());
    std::string filled = fill_lesson_text(lesson.look_for, lesson_figures(lesson));
    filled.erase(std::remove(filled.begin(), filled.end(), '`'), filled.end());
    CHECK(lesson_text_now(state, lesson, lesson.look_for) == filled);
    CHECK(filled.find("\u2026") == std::string::npos);
    CHECK(lesson_text_shown("{blocks} blocks, {nosuch}", nullptr) == "\u2026 blocks, \u2026");
    const std::map<std::string, std::string> four{{"blocks", "4"}};
    CHECK(lesson_text_shown("{blocks} `blocks`, {nosuch}", &four) == "4 blocks, {nosuch}");
}

TEST_CASE("stepping tiled-matmul's phase slider keeps the B tile beside the A tile - another kernel drops it") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "tiled-matmul");
    ui.frame(state);
    REQUIRE(state.picture);
    REQUIRE(state.picture->compare);
    state.edit.model->phase = 2;  // as the slider sets it
    mark_launch_edited(state);
    ui.frame(state);
    CHECK(state.edit.preset.empty());  // the learner's own launch now: no lesson card
    REQUIRE(state.picture->compare);
    CHECK(state.picture->compare->launch.mapped_array() == "Bs");
    CHECK(state.picture->compare->launch.model->phase == 2);
    CHECK(state.picture->launch.model->phase == 2);
    // The missing-barrier kernel in its place: no lesson of its own to compare with.
    state.edit.model->spec = find_builtin_kernel("matmul-tiled-nosync");
    mark_launch_edited(state);
    ui.frame(state);
    CHECK_FALSE(state.picture->compare);
}

TEST_CASE("the kept pictures: a few small host maps, the oldest going first, a recompiled kernel never matching") {
    const auto picture_of = [](const char* lesson, const Dim3& block) {
        ResolvedLaunch launch = lesson_launch(lesson);
        launch.launch.block = block;
        PictureOptions o;
        o.check_findings = false;
        auto built = build_picture(launch, o);
        REQUIRE_MESSAGE(built.value, built.error);
        return std::move(*built.value);
    };
    PictureCache cache;
    PictureOptions o;
    o.check_findings = false;
    for (uint32_t x : {32u, 64u, 128u, 256u}) CHECK_FALSE(cache.keep(picture_of("seed-increment", {x, 1, 1}), o));
    // A fifth pushes the first out, for its buffers to be refilled.
    const auto out = cache.keep(picture_of("seed-increment", {512, 1, 1}), o);
    REQUIRE(out);
    CHECK(out->launch.launch.block == Dim3{32, 1, 1});
    CHECK(cache.size() == PictureCache::kMaxPictures);
    CHECK_FALSE(cache.take(picture_of("seed-increment", {32, 1, 1}).launch, o, false));
    const MapPicture wide = picture_of("seed-increment", {64, 1, 1});
    PictureOptions with_findings = o;
    with_findings.check_findings = true;
    CHECK_FALSE(cache.take(wide.launch, with_findings, false));  // built without its findings
    CHECK_FALSE(cache.take(wide.launch, o, true));               // nor its memory view
    const auto taken = cache.take(wide.launch, o, false);
    REQUIRE(taken);
    CHECK(taken->launch.launch.block == Dim3{64, 1, 1});
    CHECK(cache.size() == PictureCache::kMaxPictures - 1);
    // A learner's kernel compiled again is another kernel, wherever its spec lies.
    ResolvedLaunch a = lesson_launch("histogram-race"), b = a;
    REQUIRE(a.model);
    a.model->owner = std::make_shared<int>(1);
    b.model->owner = std::make_shared<int>(1);
    CHECK_FALSE(same_build(a, o, b, o));
    b.model->owner = a.model->owner;
    CHECK(same_build(a, o, b, o));
    // A map over millions of elements is not kept: its buffers are the next run's.
    const MapPicture big = picture_of("timing-pinned", {256, 1, 1});
    REQUIRE(element_count(big.launch.workload) > PictureCache::kMaxElements);
    CHECK_FALSE(PictureCache::keeps(big));
}

TEST_CASE("the editor runs the first of several kernels - and the one the learner picks") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    KernelEditor& editor = state.editor;
    editor.text =
        "__global__ void fill(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] = 1; }\n"
        "__global__ void twice(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] = 2 * a[i]; }\n";
    editor.params = {{"a", "float *"}, {"n", "int"}};
    editor.binds = {"float[32]", "32"};
    run_editor_now(state);
    CHECK(editor.messages.empty());
    CHECK(editor.kernels == std::vector<std::string>{"fill", "twice"});
    CHECK(editor.entry == "fill");
    REQUIRE(state.edit.model);
    CHECK(state.edit.model->spec->name == "fill");
    editor.entry = "twice";  // the panel's "kernel to run"
    run_editor_now(state);
    CHECK(editor.messages.empty());
    CHECK(state.edit.model->spec->name == "twice");
    // Renamed in the text: back to the first.
    editor.text.replace(editor.text.find("twice"), 5, "thrice");
    run_editor_now(state);
    CHECK(editor.entry == "fill");
    CHECK(state.edit.model->spec->name == "fill");
}

TEST_CASE("the editor shows Clang's warnings about a kernel that compiled, and runs it as written") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    KernelEditor& editor = state.editor;
    editor.text = "__global__ void k(float* a, int n) {\n    int i = threadIdx.x;\n    if (i = n) a[0] = 1;\n}\n";
    editor.params = {{"a", "float *"}, {"n", "int"}};
    editor.binds = {"float[4]", "0"};
    run_editor_now(state);
    CHECK(editor.messages.empty());
    CHECK(editor.running);
    CHECK(editor.warnings.find("kernel.cu:3:11: warning: using the result of an assignment as a condition") !=
          std::string::npos);
    CHECK(editor.warning_lines == std::vector<int>{3});  // marked in the gutter
    // Fixed: no warnings left on screen.
    editor.text.replace(editor.text.find("i = n"), 5, "i == n");
    run_editor_now(state);
    CHECK(editor.warnings.empty());
    CHECK(editor.warning_lines.empty());
    CHECK(editor.messages.empty());
}

TEST_CASE("a lesson's own kernel: Edit opens its text and bindings, and the fix clears its findings") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    select_lesson(state, "off-by-one-guard");
    REQUIRE(state.edit.model);
    CHECK(state.edit.model->spec->name == "saxpy");
    edit_launch_kernel(state);
    finish_editor_compile(state);
    KernelEditor& editor = state.editor;
    CHECK(editor.text == find_lesson("off-by-one-guard")->own_kernel->text);
    CHECK(editor.messages.empty());
    REQUIRE(editor.params.size() == 4);
    CHECK(editor.params[1] == std::pair<std::string, std::string>{"x", "const float *"});
    CHECK(editor.binds == std::vector<std::string>{"2", "float[100]:random", "float[100]:ones", "100"});
    REQUIRE(state.edit.model);
    const auto findings = [&] { return run_model(model_launch_for(state.edit)).value->counts; };
    CHECK(findings()[size_t(FindingKind::OutOfBounds)] == 3);
    editor.text.replace(editor.text.find("i <= n"), 6, "i < n");
    run_editor_now(state);
    CHECK(editor.messages.empty());
    CHECK(findings()[size_t(FindingKind::OutOfBounds)] == 0);
}

TEST_CASE("a built-in kernel opened in the Editor is compiled and bound to its launch off the UI thread") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    select_lesson(state, "transpose-coalescing");
    REQUIRE(state.edit.model);
    edit_launch_kernel(state);
    KernelEditor& editor = state.editor;
    // Returned at once: the compile that names the parameters runs in the job (a compile here
    // froze the window for 50-95 ms, the kernel host's start when cold).
    CHECK(editor.compile_job.valid());
    CHECK(editor.binds.empty());
    CHECK(state.open_view == CentreView::Editor);
    finish_editor_compile(state);
    CHECK(editor.messages.empty());
    REQUIRE_FALSE(editor.params.empty());
    const ModelKernel& k = *state.edit.model;
    const std::vector<uint64_t> in = k.spec->arrays[k.spec->array_index("in")].shape(k.params, state.edit.launch);
    CHECK(editor.binds[0] == "float[" + std::to_string(in[0]) + "][" + std::to_string(in[1]) + "]:random");
    CHECK(editor.running);
    // "edit" while a compile runs waits for it; a kernel opened meanwhile keeps its own bindings.
    run_editor(state);
    edit_launch_kernel(state);
    open_in_editor(state, "__global__ void k(float* a, int n) { if (threadIdx.x < n) a[threadIdx.x] = 1; }\n", "",
                   {"a=float[8]:zeros", "n=8"}, "0");
    finish_editor_compile(state);
    CHECK(editor.messages.empty());
    const std::vector<std::string> own = {"float[8]:zeros", "8"};
    CHECK_MESSAGE(editor.binds == own, editor.messages);
}

TEST_CASE("where does it break - a sweep of a kernel that never ends is cancelled, and the next one runs") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    KernelEditor& editor = state.editor;
    editor.text = "__global__ void spin(float* a, int n) { while (a[0] == 0) { } }\n";
    editor.params = {{"a", "float *"}, {"n", "int"}};
    editor.binds = {"float[64]", "64"};
    run_editor_now(state);  // the run itself would stop at the 5-second limit: the sweep is cancelled first
    REQUIRE(state.edit.model);
    start_launch_sweep(state.launch_sweep, state.edit);
    CHECK(state.launch_sweep.running());
    *state.launch_sweep.cancel = true;  // the panel's Cancel
    state.launch_sweep.run.wait();
    poll_launch_sweep(state.launch_sweep);
    CHECK_FALSE(state.launch_sweep.running());
    CHECK(state.launch_sweep.error == "cancelled");
    CHECK_FALSE(state.launch_sweep.result);
    select_lesson(state, "off-by-one-guard");
    start_launch_sweep(state.launch_sweep, state.edit);
    state.launch_sweep.run.wait();
    poll_launch_sweep(state.launch_sweep);
    REQUIRE(state.launch_sweep.result);
    CHECK(state.launch_sweep.error.empty());
    CHECK(state.launch_sweep.result->reference_counts[size_t(FindingKind::OutOfBounds)] == 3);
}

TEST_CASE("where does it break - against the Editor kernel's expected result") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    select_lesson(state, "seed-increment");  // 16 blocks of 32
    start_editor(state.editor, "");          // the seed's increment_by_one over 500 elements
    run_editor_now(state);
    REQUIRE(state.edit.model);
    // An expectation that does not compile: the sweep ends with Clang's message.
    start_launch_sweep(state.launch_sweep, state.edit,
                       editor_expectation(state, "for (int i = 0; i < n; ++i) a[i] = b[i];"));
    state.launch_sweep.run.wait();
    poll_launch_sweep(state.launch_sweep);
    CHECK_FALSE(state.launch_sweep.result);
    CHECK(state.launch_sweep.error.find("--expect:1:") != std::string::npos);
    start_launch_sweep(state.launch_sweep, state.edit,
                       editor_expectation(state, "for (int i = 0; i < n; ++i) a[i] = a[i] + 1;"));
    state.launch_sweep.run.wait();
    poll_launch_sweep(state.launch_sweep);
    REQUIRE_MESSAGE(state.launch_sweep.result, state.launch_sweep.error);
    const LaunchSweep& s = *state.launch_sweep.result;
    CHECK(s.expected);
    REQUIRE_FALSE(s.launches.empty());
    CHECK(s.launches[0].why == "your launch");
    CHECK_MESSAGE(s.launches[0].agrees(), swept_launch_text(s.launches[0]));  // guarded, one thread per element
    for (const SweptLaunch& w : s.launches)
        if (w.why == "a single block") CHECK(w.differing == 500 - 32);  // 32 threads, 500 elements
}

TEST_CASE("where does it break - the Findings tab's expected-result field takes what the learner types") {
    SKIP_WITHOUT_CLANG();
    HeadlessUi ui;
    AppState state;
    state.requests.rescale = false;
    select_lesson(state, "seed-increment");
    start_editor(state.editor, "");
    run_editor_now(state);  // the field is there for the Editor's kernel (and lessons' kernels giving no statement)
    state.open_view = CentreView::Editor;
    for (int i = 0; i < 3; ++i) ui.frame(state);
    ui.click(state, "tab:Findings");
    ui.frame(state);
    ui.click(state, "findings:expect");
    ImGui::GetIO().AddInputCharactersUTF8("for (int i = 0; i < n; ++i) a[i] = a[i] + 1;");
    ui.frame(state);
    CHECK(state.launch_sweep.expect == "for (int i = 0; i < n; ++i) a[i] = a[i] + 1;");
    ui.click(state, "findings:sweep");
    state.launch_sweep.run.wait();
    ui.frame(state);
    REQUIRE(state.launch_sweep.result);
    CHECK(state.launch_sweep.result->expected);
    CHECK(state.launch_sweep.result->launches.at(0).agrees());
}

TEST_CASE("where does it break - a lesson's own kernel is compared with the lesson's expected result") {
    SKIP_WITHOUT_CLANG();
    HeadlessUi ui;
    AppState state;
    state.requests.rescale = false;
    select_lesson(state, "off-by-one-guard");
    for (int i = 0; i < 3; ++i) ui.frame(state);
    REQUIRE(state.picture);
    REQUIRE(state.picture->launch.model);
    ui.click(state, "tab:Findings");
    ui.frame(state);
    CHECK(state.widget_rects.count("findings:expect") == 0);  // no field: the lesson gives the statement
    ui.click(state, "findings:sweep");
    state.launch_sweep.run.wait();
    ui.frame(state);
    REQUIRE_MESSAGE(state.launch_sweep.result, state.launch_sweep.error);
    const LaunchSweep& s = *state.launch_sweep.result;
    CHECK(s.expected);
    // Its own launch has the right values and 3 out-of-bounds accesses: it differs.
    CHECK(s.launches.at(0).why == "your launch");
    CHECK(s.launches.at(0).differing == 0);
    CHECK_FALSE(s.launches.at(0).agrees());
}

TEST_CASE("a divergent barrier is on the map - its block's cells by where each thread was") {
    SKIP_WITHOUT_CLANG();
    AppState state;
    KernelEditor& editor = state.editor;
    // The barrier inside `if (t < step)`: threads 128-255 of block 0 skip it and end.
    editor.text =
        "__global__ void block_sum(const float* in, float* out, int n) {\n"
        "    __shared__ float s[256];\n"
        "    int t = threadIdx.x;\n"
        "    int i = blockIdx.x * blockDim.x + t;\n"
        "    s[t] = i < n ? in[i] : 0;\n"
        "    __syncthreads();\n"
        "    for (int step = blockDim.x / 2; step > 0; step /= 2) {\n"
        "        if (t < step) {\n"
        "            s[t] += s[t + step];\n"
        "            __syncthreads();\n"
        "        }\n"
        "    }\n"
        "    if (t == 0) out[blockIdx.x] = s[0];\n"
        "}\n";
    editor.params = {{"in", "const float *"}, {"out", "float *"}, {"n", "int"}};
    editor.binds = {"float[1000]:ones", "float[4]", "1000"};
    run_editor_now(state);
    REQUIRE(editor.messages.empty());
    REQUIRE(state.edit.model);
    state.edit.launch = {{4, 1, 1}, {256, 1, 1}};
    state.edit.model->array = state.edit.model->spec->array_index("in");
    state.edit.model->reads = true;
    state.edit.workload = model_workload(*state.edit.model, state.edit.launch);
    PictureOptions po;
    po.mode = ColorMode::Findings;
    auto built = build_picture(state.edit, po);  // the learner's kernel: run in its child process
    REQUIRE_MESSAGE(built.value, built.error);
    MapPicture& picture = *built.value;
    REQUIRE(picture.findings.diverged);
    CHECK(picture.findings.diverged->line == 10);
    // in[0..127] read by threads that waited at line 10, in[128..255] by threads that had left;
    // the blocks after block 0 never ran.
    for (uint64_t editor = 0; editor < 1000; ++editor) {
        const uint8_t barrier =
            picture.findings.found[editor] & (kFoundBarrierWaiting | kFoundBarrierElsewhere | kFoundBarrierExited);
        CHECK(barrier == (editor < 128 ? kFoundBarrierWaiting : editor < 256 ? kFoundBarrierExited : 0));
    }
    const Legend g = picture_legend(picture);
    CHECK(g.note.find("divergent\nbarrier in block (0,0,0)") != std::string::npos);
    CHECK(std::any_of(g.swatches.begin(), g.swatches.end(),
                      [](const LegendSwatch& s) { return s.label == "diverged: had exited"; }));
    uint32_t x = 0, y = 0;
    picture.layout.cell_of(200, x, y);
    const CellDescription d = describe_cell(picture, int(x), int(y));
    CHECK(std::find(d.fields.begin(), d.fields.end(),
                    std::pair<std::string, std::string>{"when the launch ended (divergent)",
                                                        "this thread had exited without reaching line 10"}) !=
          d.fields.end());
    // Fixed (the barrier outside the if): none.
    const std::string inside = "            __syncthreads();\n        }";
    editor.text.replace(editor.text.find(inside), inside.size(), "        }\n        __syncthreads();");
    run_editor_now(state);
    REQUIRE(editor.messages.empty());
    // The map stays on the array the learner chose, as read.
    CHECK(state.edit.model->spec->arrays[state.edit.model->array].name == "in");
    CHECK(state.edit.model->reads);
    auto fixed = build_picture(state.edit, po);
    REQUIRE(fixed.value);
    CHECK_FALSE(fixed.value->findings.diverged);
}

TEST_CASE(
    "the analysis tabs lead with their figure - Memory's worst access - Occupancy's figure and SM x wave timeline") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "transpose-bank-conflicts");
    for (int i = 0; i < 4; ++i) {  // the lesson's map, then the Memory tab counting its requests
        state.open_view = CentreView::Memory;
        ui.frame(state);
    }
    REQUIRE(state.picture);
    REQUIRE(state.picture->memory.computed);
    CHECK(state.widget_rects.count("memory-lead") == 1);
    // Above the table: the figure comes first.
    CHECK(state.widget_rects.at("memory-lead").y < state.widget_rects.at("memory:lanes").y);
    select_lesson(state, "occupancy-wave-quantization");  // opens on the Occupancy tab
    ui.frame(state);
    ui.frame(state);
    REQUIRE(state.widget_rects.count("occupancy-figures") == 1);
    REQUIRE(state.widget_rects.count("occupancy-waves") == 1);
    CHECK(state.widget_rects.at("occupancy-figures").y < state.widget_rects.at("occupancy-waves").y);
    CHECK(state.widget_rects.at("occupancy-waves").h > 5 * ImGui::GetFontSize());  // a picture, not a line
}

TEST_CASE("the pinned element's inspector lists every thread that touched it - found off the UI thread") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-matmul");
    ui.frame(state);
    ui.frame(state);
    REQUIRE(state.picture);
    const auto settle = [&] {
        ui.frame(state);
        while (state.touchers.running()) {
            state.touchers.run.wait();
            ui.frame(state);
        }
        CHECK_FALSE(state.busy());
    };
    pin_element(state, 3 * 200 + 4);  // C[3, 4]: one thread writes it
    settle();
    REQUIRE(state.touchers.result);
    CHECK(state.touchers.result->threads == 1);
    REQUIRE(state.touchers.result->listed.size() == 1);
    const std::string text = toucher_text(state.touchers.result->listed[0], state.picture->launch.launch);
    CHECK(text.find("wrote at line") != std::string::npos);
    const CellDescription d = describe_cell(*state.picture, state.pinned_cell->x, state.pinned_cell->y);
    const auto field = [&](const std::string& label) {
        for (const auto& [l, value] : d.fields)
            if (l == label) return value;
        return std::string("(none)");
    };
    // The inspector's thread is the one listed.
    CHECK(text.rfind("thread " + field("threadIdx") + " of block " + field("blockIdx") + ": ", 0) == 0);

    state.pinned_cell.reset();  // released: nothing is searched for
    settle();
    CHECK(state.touchers.picture == 0);
}

TEST_CASE("a Memory-table row shows its line on the map - its elements outlined, one of its warps inspected") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "coalescing");
    const std::string store_row = "memory:line:9:C:store", load_row = "memory:line:8:A:load";
    const auto open_memory_tab = [&] {
        state.open_view = CentreView::Memory;
        for (int i = 0; i < 8 && !(state.shown_view == CentreView::Memory && state.widget_rects.count(store_row)); ++i)
            ui.frame(state);
        REQUIRE(state.widget_rects.count(store_row) == 1);
        for (int i = 0; i < 3; ++i) ui.frame(state);  // the table's wrapped columns settle their widths
    };
    open_memory_tab();
    ui.click(state, store_row);
    REQUIRE(state.memory_line);
    CHECK(state.memory_line->line == 9);
    CHECK(state.memory_line->elements.size() == 200 * 200);  // line 9 stores every element of C
    REQUIRE(state.pinned_cell);
    CHECK(state.settings.color_mode == "sectors");
    for (int i = 0; i < 3; ++i) ui.frame(state);  // the tab switches, the map recolours
    CHECK(state.shown_view == CentreView::Map);
    const KeptRequest* shown = inspected_request(state);
    REQUIRE(shown);
    CHECK(shown->line == 9);
    CHECK(std::popcount(shown->request.mask) == 32);

    // A's loads are counted, not kept (the map is C's stores): a message, the line stays.
    open_memory_tab();
    ui.click(state, load_row);
    INFO(state.message);
    CHECK(state.message.find("line 8 is counted, not drawn: the map shows C's stores") != std::string::npos);
    CHECK(state.memory_line->line == 9);
}

TEST_CASE("a memory view too large to count says so once - the Memory tab opening computes nothing again") {
    HeadlessUi ui;
    AppState state;
    select_lesson(state, "seed-matmul");
    state.settings.color_mode = "sectors";
    state.edit.workload.inner = 2048;  // 200 × 200 × 2048 thread-steps, past the memory view's 2^26
    mark_launch_edited(state);
    finish_picture_job(state, 16384, kMaxDrawnCells);
    REQUIRE(state.picture);
    REQUIRE(state.picture->memory.computed);
    CHECK_FALSE(state.picture->memory.not_computed.empty());
    CHECK_FALSE(state.picture->memory.every_site);
    state.memory_view_open = true;
    state.pending.recolor = true;
    update_picture(state, 16384, kMaxDrawnCells);
    CHECK_FALSE(state.picture_job);  // nothing more to count: the tab says why at once
}

TEST_CASE("a number in wrapped text is never split at its decimal point - ImGui would end a line after it") {
    HeadlessImGuiContext context;
    const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];
    const std::string plain = "the last is 29.29% full, so 70.71% of the GPU's slots idle while it runs.";
    const std::string kept = keep_numbers_whole(plain);
    CHECK(kept == "the last is 29\u202429% full, so 70\u202471% of the GPU's slots idle while it runs.");
    CHECK(keep_numbers_whole("v1.86 ends. 3. and .5") == "v1\u202486 ends. 3. and .5");  // only between digits
    // Tuples and short groups stay whole; a long parenthesis still breaks at its spaces.
    CHECK(keep_numbers_whole("block (0,0,0) and (x, y, z)") ==
          "block (0\u201A0\u201A0) and (x\u201A\u00A0y\u201A\u00A0z)");
    CHECK(keep_numbers_whole("(a longer aside, not kept)") == "(a longer aside, not kept)");
    // Where ImGui ends each line of `text` at every width from 100 to 600 pixels (wider than
    // any of its words, which ImGui cuts only when one is wider than the line): how many of
    // those ends fall inside the number.
    const auto splits_of_number = [&](const std::string& text, const std::string& number) {
        const size_t first = text.find(number), last = first + number.size();
        int splits = 0;
        for (float width = 100; width <= 600; width += 1) {
            const char* s = text.c_str();
            const char* end = s + text.size();
            while (s < end) {
                const char* line_end = font.CalcWordWrapPositionA(1.0f, s, end, width);
                if (line_end == s) line_end = s + 1;  // a word wider than the line
                const size_t at = size_t(line_end - text.c_str());
                splits += at > first && at < last;
                s = line_end;
                while (s < end && *s == ' ') ++s;
            }
        }
        return splits;
    };
    CHECK(splits_of_number(plain, "70.71") > 0);  // why: ImGui 1.86 wraps after any '.'
    CHECK(splits_of_number(kept, "70\u202471") == 0);
    const std::string tuples = "thread (10,1,0) of block (0,0,0) writes, threads in each block (x, y, z) there";
    const std::string tuples_kept = keep_numbers_whole(tuples);
    CHECK(splits_of_number(tuples, "(x, y, z)") > 0);
    CHECK(splits_of_number(tuples, "(10,1,0)") > 0);
    CHECK(splits_of_number(tuples_kept, "(x\u201A\u00A0y\u201A\u00A0z)") == 0);
    CHECK(splits_of_number(tuples_kept, "(10\u201A1\u201A0)") == 0);
}
