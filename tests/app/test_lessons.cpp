// The lessons: every preset loads, and each shows the numbers its explanation promises.
#include <doctest/doctest.h>

#include <algorithm>
#include <utility>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "tests/refusal.hpp"
#include "tests/run_binary.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "app/launch/launch_options.hpp"
#include "tests/app/lesson_launch.hpp"
#include "app/reports/lesson_text.hpp"
#include "app/launch/lessons.hpp"
#include "app/launch/session_file.hpp"

using namespace threadmap;

namespace {

// A lesson's text that must parse.
Lesson lesson_of(const std::string& text) {
    Outcome<Lesson> lesson = parse_lesson(text);
    REQUIRE_MESSAGE(lesson.value, lesson.error);
    return *lesson.value;
}

LaunchResult run_preset(const std::string& name) {
    const ResolvedLaunch resolved = lesson_launch(name);
    return emulate(resolved.workload, resolved.launch);
}

}  // namespace

// The figures a learner reads in a text: runs of digits (with , or . inside) that do not
// touch a letter (FP64, 2D and GH200 are names), outside `code` and outside {placeholders}.
std::vector<std::string> figures_in(const std::string& text) {
    std::vector<std::string> found;
    bool code = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '`') code = !code;
        if (code) continue;
        if (c == '{') {
            i = text.find('}', i);
            if (i == std::string::npos) break;
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(c))) continue;
        size_t j = i;
        while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) ||
                                   ((text[j] == ',' || text[j] == '.') && j + 1 < text.size() &&
                                    std::isdigit(static_cast<unsigned char>(text[j + 1])))))
            ++j;
        const bool letter_before =
            i > 0 && (std::isalpha(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
        const bool letter_after =
            j < text.size() && (std::isalpha(static_cast<unsigned char>(text[j])) || text[j] == '_');
        if (!letter_before && !letter_after) found.push_back(text.substr(i, j - i));
        i = j;
    }
    return found;
}

TEST_CASE("no lesson states a figure that neither its launch nor a cited source gives") {
    CHECK(figures_in("16 blocks, FP64, `n + 1`, {blocks} and 1.4 to 3 times, 16,992 threads") ==
          std::vector<std::string>{"16", "1.4", "3", "16,992"});
    for (const Lesson& lesson : lessons()) {
        CAPTURE(lesson.name);
        std::set<std::string> cited;
        for (const auto& s : lesson.sources) cited.insert(s.figures.begin(), s.figures.end());
        for (const std::string* text : {&lesson.explanation, &lesson.look_for, &lesson.title})
            for (const std::string& figure : figures_in(*text)) {
                CAPTURE(figure);
                CHECK(cited.count(figure) == 1);
            }
        // Every placeholder is filled from the lesson's own launch.
        const auto& figures = lesson_figures(lesson);
        for (const std::string* text : {&lesson.explanation, &lesson.look_for}) {
            const std::string filled = fill_lesson_text(*text, figures);
            CAPTURE(filled);
            CHECK(filled.find('{') == std::string::npos);
        }
    }
}

TEST_CASE("the figures in a lesson's text are its launch's - seed-increment-bug") {
    const Lesson* lesson = find_lesson("seed-increment-bug");
    REQUIRE(lesson);
    const std::string text = fill_lesson_text(lesson->explanation + " " + lesson->look_for, lesson_figures(*lesson));
    CHECK(text.find("531 blocks of 32 threads (16,992 threads) for 500 elements") != std::string::npos);
    CHECK(text.find("16,492 of 16,992 threads (97%) are idle") != std::string::npos);
    CHECK(grouped(1234) == "1234");
    CHECK(grouped(12345) == "12,345");
    CHECK(grouped(1234567) == "1,234,567");
}

TEST_CASE("the tutorial's six mistakes each have a lesson") {
    const char* mistakes[] = {
        "seed-increment-bug",         // the grid size without the division by threadsperblock
        "seed-matmul",                // C allocated 200x200 for a 300x300 product, a fixed 16x16 grid
        "seed-matmul-store-in-loop",  // C[i, j] = tmp inside the k loop
        "seed-matmul-uncoalesced",    // x indexes rows: the loads of A are uncoalesced
        "grid-vs-block-dim",          // "the shape of the block ... numba.cuda.gridDim"
        "timing-resident",            // the "fixed" version still passes the host arrays
    };
    for (const char* name : mistakes) CHECK_MESSAGE(find_lesson(name), name);
    CHECK(find_lesson("seed-matmul-store-in-loop")->store_in_loop);
    CHECK(find_lesson("seed-matmul")->program.transfers == Transfers::HostArrays);
    CHECK(find_lesson("seed-matmul")->program.element == ElementType::Float64);
    CHECK(find_lesson("seed-matmul-fixed")->program.element == ElementType::Float32);
}

TEST_CASE("the five seed lessons exist and have their texts") {
    for (const char* name :
         {"seed-increment", "seed-increment-bug", "seed-matmul", "seed-matmul-fixed", "grid-stride"}) {
        const Lesson* lesson = find_lesson(name);
        REQUIRE_MESSAGE(lesson, name);
        CHECK_FALSE(lesson->title.empty());
        CHECK(lesson->explanation.size() > 80);
        CHECK_FALSE(lesson->look_for.empty());
    }
}

TEST_CASE("seed-increment - 16 blocks of 32 - 12 idle threads") {
    const LaunchResult result = run_preset("seed-increment");
    CHECK(result.map.launch.grid == Dim3{16, 1, 1});
    CHECK(result.stats.threads_idle == 12);
    CHECK(result.stats.elements_untouched == 0);
}

TEST_CASE("seed-matmul - 512x512 threads for a 200x200 C carved out of a 300x300 product") {
    const LaunchResult result = run_preset("seed-matmul");
    CHECK(result.stats.threads_launched == 512 * 512);
    CHECK(result.stats.elements == 200 * 200);
    CHECK(result.stats.threads_active == 200 * 200);
    CHECK(find_lesson("seed-matmul")->workload.a_rows == 300);
    CHECK(find_lesson("seed-matmul")->workload.b_cols == 300);
}

TEST_CASE("seed-matmul-fixed - the covering grid is 10x10 and covers all of C") {
    const LaunchResult result = run_preset("seed-matmul-fixed");
    CHECK(result.map.launch.grid == Dim3{10, 10, 1});
    CHECK(result.stats.elements == 90000);
    CHECK(result.stats.elements_untouched == 0);
    CHECK(result.stats.threads_idle == 12400);
}

TEST_CASE("grid-stride - 128 threads cover 500 elements once each") {
    const LaunchResult result = run_preset("grid-stride");
    CHECK(result.stats.threads_launched == 128);
    CHECK(result.stats.elements_untouched == 0);
    CHECK(result.stats.elements_multi == 0);
    CHECK(result.map.toucher(389)->thread == Dim3{5, 0, 0});
}

TEST_CASE("a malformed lesson file is refused with a message") {
    CHECK(refusal(parse_lesson("{")).find("malformed lesson") != std::string::npos);
    CHECK_FALSE(
        parse_lesson(
            R"({"name":"x","title":"t","group":"First kernels","order":1,"explanation":"e","look_for":"l","kernel":"warp","n":5})")
            .value);
    CHECK_FALSE(
        parse_lesson(
            R"({"name":"x","title":"t","group":"First kernels","order":1,"explanation":"e","look_for":"l","kernel":"matmul",
        "rows":10,"cols":10,"inner":4,"a_rows":5})")
            .value);  // A too small for C's guard
    // Numbers that do not fit their field are refused by name, never converted (1e40 into a
    // uint32_t is undefined behaviour, -1 would wrap to 4294967295).
    const std::string head =
        R"({"name":"x","title":"t","group":"First kernels","order":1,"explanation":"e","look_for":"l","kernel":"increment",)";
    CHECK(refusal(parse_lesson(head + R"("n":5,"block":[1e40]})")).find("'block' must be a whole number") !=
          std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("n":5,"grid":[-1]})")).find("'grid' must be a whole number") !=
          std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("n":2.5})")).find("'n' must be a whole number") != std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("n":5,"timing":{"repeats":1e300}})"))
              .find("'timing.repeats' must be a whole number") != std::string::npos);
    CHECK(lesson_of(head + R"("n":5.0,"block":[32.0]})").block->x == 32);
    // The launch a memory lesson sets against its own: parameters of its kernel, in range.
    const std::string copy =
        R"({"name":"x","title":"t","group":"First kernels","order":1,"explanation":"e","look_for":"l","kernel":"copy-offset",)";
    CHECK(refusal(parse_lesson(copy + R"("compare_params":{"shift":0}})"))
              .find("compare_params: copy-offset has no parameter 'shift'") != std::string::npos);
    CHECK(refusal(parse_lesson(copy + R"("compare_params":{"offset":5000}})"))
              .find("compare_params.offset is out of its range") != std::string::npos);
    const Lesson lesson = lesson_of(copy + R"("params":{"n":64,"offset":1},"compare_params":{"offset":0}})");
    REQUIRE(lesson.compare_params);
    CHECK(*lesson.compare_params == Params{64, 0});
}

TEST_CASE("options override a preset - a new block gets a covering grid") {
    LaunchOptions o;
    o.preset = "seed-increment-bug";
    o.block = "64";
    const auto r = resolve_launch(o);
    REQUIRE(r.value);
    CHECK(r.value->launch.block == Dim3{64, 1, 1});
    CHECK(r.value->launch.grid == Dim3{8, 1, 1});
}

TEST_CASE(
    "occupancy lessons - 50% with one-warp blocks on an H200 - 1057 blocks take two waves - 32 KB of shared memory per "
    "block holds 6") {
    const auto& small = lesson_figures(*find_lesson("occupancy-small-blocks"));
    CHECK(small.at("blocks_per_sm") == "32");
    CHECK(small.at("active_warps") == "32");
    CHECK(small.at("max_warps") == "64");
    CHECK(small.at("occupancy") == "50%");
    CHECK(small.at("cc") == "9.0");
    const auto& waves = lesson_figures(*find_lesson("occupancy-wave-quantization"));
    CHECK(waves.at("blocks") == "1057");
    CHECK(waves.at("slots") == "1056");  // 8 blocks of 256 threads per SM × 132 SMs
    CHECK(waves.at("waves") == "2");
    CHECK(waves.at("last_wave_blocks") == "1");
    CHECK(waves.at("idle_tail_percent") == "100%");  // 1055 of 1056 slots, rounded
    // 8192 bins: 32 KB of shared memory per block, 33 KB allotted; 228 KB hold 6 blocks where
    // the warp slots would hold 8 blocks of 256 threads.
    const auto& shared = lesson_figures(*find_lesson("occupancy-shared-memory"));
    CHECK(shared.at("shared_per_block") == "32,768");
    CHECK(shared.at("allocated_shared") == "33,792");
    CHECK(shared.at("shared_per_sm") == "233,472");
    CHECK(shared.at("blocks_by_shared") == "6");
    CHECK(shared.at("blocks_by_warps") == "8");
    CHECK(shared.at("blocks_per_sm") == "6");
    CHECK(shared.at("active_warps") == "48");
    CHECK(shared.at("occupancy") == "75%");
}

TEST_CASE("timing-first-launch gives Clang's and NVRTC's compile of the seed's kernel, measured when it opens") {
    const Lesson* lesson = find_lesson("timing-first-launch");
    REQUIRE(lesson);
    const auto& f = lesson_figures(*lesson);
    REQUIRE(f.count("clang_compile") == 1);
    REQUIRE(f.count("nvrtc_compile") == 1);
    // A time in whole milliseconds, or why there is none ("no time (NVRTC … was not found …)").
    for (const char* name : {"clang_compile", "nvrtc_compile"}) {
        const std::string& t = f.at(name);
        CAPTURE(t);
        const bool time =
            t.size() > 3 && t.substr(t.size() - 3) == " ms" && std::isdigit(static_cast<unsigned char>(t[0]));
        CHECK((time || t.rfind("no time (", 0) == 0));
    }
    const std::string text = fill_lesson_text(lesson->explanation, f);
    CHECK(text.find("for a GPU in " + f.at("nvrtc_compile")) != std::string::npos);
}

TEST_CASE("a lesson's view is checked field by field - a bad value names its field") {
    const std::string head =
        R"({"name":"x","title":"t","group":"First kernels","order":1,"explanation":"e","look_for":"l",)"
        R"("kernel":"increment","n":5,)";
    CHECK(refusal(parse_lesson(head + R"("view":{"color":"rainbow"}})"))
              .find("view.color: 'rainbow' is not a colour mode") != std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":{"tab":"stats"}})")).find("view.tab") != std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":{"zoom":2}})")).find("view.zoom: not a field of a lesson's view") !=
          std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":{"access":"both"}})")).find("view.access") != std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":{"phase":-1}})")).find("'view.phase' must be a whole number") !=
          std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":{"pin":[1,2,3]}})")).find("view.pin") != std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":{"run":true}})")).find("view.run: only a timing lesson runs on open") !=
          std::string::npos);
    CHECK(refusal(parse_lesson(head + R"("view":"map"})")).find("view must be an object") != std::string::npos);
    // The curriculum's fields: a group of the curriculum and an order, both required.
    const std::string no_group = R"({"name":"x","title":"t","order":1,"explanation":"e","look_for":"l",)"
                                 R"("kernel":"increment","n":5})";
    CHECK(refusal(parse_lesson(no_group)).find("'group' is missing") != std::string::npos);
    std::string other_group = no_group;
    other_group.insert(1, R"("group":"Advanced",)");
    CHECK(refusal(parse_lesson(other_group)).find("'Advanced' is not a group of the curriculum") != std::string::npos);
    const Lesson lesson = lesson_of(head + R"("view":{"color":"coverage","tab":"map","array":"a","access":"read",)"
                                           R"("phase":2,"shared_block":[1,2],"pin":[3]}})");
    CHECK(lesson.view.color == "coverage");
    CHECK(lesson.view.tab == "map");
    CHECK(lesson.view.access == "read");
    CHECK(lesson.view.phase == "2");
    CHECK(lesson.view.shared_block == "1,2");
    CHECK(lesson.view.pin == std::vector<uint64_t>{3});
}

TEST_CASE("threadmap lessons --format json - every lesson with its title, group and order, in course order") {
    const RunResult r = run_threadmap({"lessons", "--format", "json"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    REQUIRE(j["lessons"].size() == lessons().size());
    std::set<int> orders;
    int last = 0;
    for (const auto& l : j["lessons"]) {
        CAPTURE(l.dump());
        CHECK(find_lesson(l["id"].get<std::string>()) != nullptr);
        CHECK_FALSE(l["title"].get<std::string>().empty());
        CHECK_FALSE(l["summary"].get<std::string>().empty());
        CHECK(l["summary"] != l["title"]);  // a line of its own, not the title again
        CHECK(std::find(lesson_groups().begin(), lesson_groups().end(), l["group"].get<std::string>()) !=
              lesson_groups().end());
        CHECK(l["order"].get<int>() > last);  // listed in the order a course teaches them
        last = l["order"].get<int>();
        orders.insert(last);
    }
    CHECK(orders.size() == lessons().size());
    // The text list names each group once, and --help points to the command.
    const RunResult text = run_threadmap({"lessons"});
    CHECK(text.exit_code == 0);
    for (const std::string& g : lesson_groups()) {
        CAPTURE(g);
        const bool heading = text.out.find("\n" + g + "\n") != text.out.npos || text.out.rfind(g + "\n", 0) == 0;
        CHECK(heading);
    }
    CHECK(run_threadmap({"--help"}).out.find("threadmap lessons") != std::string::npos);
    const RunResult bad = run_threadmap({"lessons", "--format", "xml"});
    CHECK(bad.exit_code == 2);
}

namespace {

// The launch as Save session writes it and `threadmap FILE` reads it back: the options read,
// and the launch they resolve to.
std::pair<LaunchOptions, ResolvedLaunch> saved_and_reopened(const ResolvedLaunch& opened) {
    Session session;
    session.launch = options_of(opened);
    const auto text = session_json(session);
    REQUIRE(text.value);
    const auto read = parse_session(*text.value, "s.threadmap");
    REQUIRE_MESSAGE(read.value, read.error);
    auto again = resolve_launch(read.value->launch);
    REQUIRE_MESSAGE(again.value, again.error);
    return {read.value->launch, std::move(*again.value)};
}

}  // namespace

TEST_CASE("a session of a changed launch resolves to the same - a typed A's rows, a preset's operands given up") {
    const LaunchOptions launches[] = {
        {.kernel = "matmul", .rows = "100", .cols = "50", .params = {{"a_rows", "120"}}},
        {.preset = "seed-matmul", .rows = "100"},
        {.preset = "seed-matmul", .params = {{"a_rows", "250"}}},
        {.preset = "tiled-matmul", .cols = "64"},
        {.preset = "grid-vs-block-dim", .cols = "64"},
    };
    for (const LaunchOptions& given : launches) {
        CAPTURE(given.preset);
        CAPTURE(given.rows);
        CAPTURE(given.cols);
        auto opened = resolve_launch(given);
        REQUIRE_MESSAGE(opened.value, opened.error);
        const ResolvedLaunch back = saved_and_reopened(*opened.value).second;
        CHECK(back.kernel_name() == opened.value->kernel_name());
        CHECK(back.workload == opened.value->workload);
        CHECK(back.launch.grid == opened.value->launch.grid);
        if (opened.value->model) CHECK(back.model->params == opened.value->model->params);
    }
}

TEST_CASE("a session of every lesson as it opens resolves to the same launch - seed-matmul's A of 300x200 kept") {
    for (const Lesson& lesson : lessons()) {
        CAPTURE(lesson.name);
        ResolvedLaunch opened = lesson_launch(lesson.name);
        LaunchOptions given;
        given.preset = lesson.name;
        REQUIRE(open_on_lesson_view(opened, given).done());
        // What Save session writes of it, read back as `threadmap FILE` reads it.
        auto [read, back] = saved_and_reopened(opened);
        REQUIRE(open_on_lesson_view(back, read).done());
        CHECK(back.kernel_name() == opened.kernel_name());
        CHECK(back.launch.grid == opened.launch.grid);
        CHECK(back.launch.block == opened.launch.block);
        CHECK(back.workload.n == opened.workload.n);
        CHECK(back.workload.rows == opened.workload.rows);
        CHECK(back.workload.cols == opened.workload.cols);
        CHECK(back.workload.inner == opened.workload.inner);
        CHECK(back.workload.a_rows == opened.workload.a_rows);
        CHECK(back.workload.b_cols == opened.workload.b_cols);
        CHECK(back.array_caption() == opened.array_caption());
        if (opened.model && back.model) {
            CHECK(back.model->params == opened.model->params);
            CHECK(back.model->reads == opened.model->reads);
            CHECK(back.model->phase == opened.model->phase);
        }
    }
}

TEST_CASE("a session file's bad fields are named - and a learner's text takes no preset or shape") {
    const auto problem = [](const std::string& text) {
        const auto s = parse_session(text, "s.threadmap");
        return s.value ? std::string() : s.error;
    };
    CHECK(problem("{").find("s.threadmap: malformed session") == 0);
    CHECK(problem(R"({"launch":{}})") == R"(s.threadmap: not a threadmap session (no "threadmap_session": 1))");
    for (const char* version : {"1.5", "true", R"("1")", "2"})  // only the number 1
        CHECK(problem(std::string(R"({"threadmap_session":)") + version + R"(,"launch":{}})") ==
              R"(s.threadmap: not a threadmap session (no "threadmap_session": 1))");
    CHECK(problem(R"({"threadmap_session":1})") == "s.threadmap: launch is missing");
    CHECK(problem(R"({"threadmap_session":1,"launch":{"blokc":"32"}})") ==
          "s.threadmap: launch.blokc: not a field of a session's launch");
    CHECK(problem(R"({"threadmap_session":1,"launch":{"block":[32,-1]}})") ==
          "s.threadmap: launch.block: a list of whole numbers");
    CHECK(problem(R"({"threadmap_session":1,"launch":{},"view":{"tab":"stats"}})").find("view.tab") !=
          std::string::npos);
    CHECK(problem(R"({"threadmap_session":1,"launch":{},"view":{"color":"rainbow"}})").find("view.color") !=
          std::string::npos);
    CHECK(problem(R"({"threadmap_session":1,"launch":{"preset":"seed-increment","source_text":"x"}})") ==
          "s.threadmap: launch.source_text gives the kernel: no preset, kernel, shape or params with it");
    CHECK(problem(R"({"threadmap_session":1,"launch":{"binds":["a=float[4]"]}})").find("go with a source_text") !=
          std::string::npos);
    CHECK(
        problem(R"({"threadmap_session":1,"launch":{"preset":"seed-increment"},"view":{"color":"coverage"}})").empty());
    // A kernel's text that is not UTF-8 cannot be saved as JSON: a message, not an exception.
    Session bad;
    bad.launch.source_text = "__global__ void k() {} // \xe9t\xe9\n";
    const auto saved = session_json(bad);
    CHECK_FALSE(saved.value);
    CHECK(saved.error.find("not UTF-8") != std::string::npos);
}
