// The lessons: every preset loads, and each shows the numbers its explanation promises.
#include <doctest/doctest.h>

#include <stdexcept>

#include "cpu_emulator.hpp"
#include "launch_options.hpp"
#include "lessons.hpp"
#include "lesson_launch.hpp"

using namespace threadmap;

namespace {

LaunchResult run_preset(const std::string& name) {
    const ResolvedLaunch r = lesson_launch(name);
    return emulate(r.workload, r.launch);
}

}  // namespace

TEST_CASE("the five seed lessons exist and have their texts") {
    for (const char* name :
         {"seed-increment", "seed-increment-bug", "seed-matmul", "seed-matmul-fixed", "grid-stride"}) {
        const Lesson* l = find_lesson(name);
        REQUIRE_MESSAGE(l, name);
        CHECK_FALSE(l->title.empty());
        CHECK(l->explanation.size() > 80);
        CHECK_FALSE(l->look_for.empty());
    }
}

TEST_CASE("seed-increment - 16 blocks of 32 - 12 idle threads") {
    const LaunchResult e = run_preset("seed-increment");
    CHECK(e.map.launch.grid == Dim3{16, 1, 1});
    CHECK(e.stats.threads_idle == 12);
    CHECK(e.stats.elements_untouched == 0);
}

TEST_CASE("seed-matmul - 512x512 threads for a 200x200 C carved out of a 300x300 product") {
    const LaunchResult e = run_preset("seed-matmul");
    CHECK(e.stats.threads_launched == 512 * 512);
    CHECK(e.stats.elements == 200 * 200);
    CHECK(e.stats.threads_active == 200 * 200);
    CHECK(find_lesson("seed-matmul")->workload.a_rows == 300);
    CHECK(find_lesson("seed-matmul")->workload.b_cols == 300);
}

TEST_CASE("seed-matmul-fixed - the covering grid is 10x10 and covers all of C") {
    const LaunchResult e = run_preset("seed-matmul-fixed");
    CHECK(e.map.launch.grid == Dim3{10, 10, 1});
    CHECK(e.stats.elements == 90000);
    CHECK(e.stats.elements_untouched == 0);
    CHECK(e.stats.threads_idle == 12400);
}

TEST_CASE("grid-stride - 128 threads cover 500 elements once each") {
    const LaunchResult e = run_preset("grid-stride");
    CHECK(e.stats.threads_launched == 128);
    CHECK(e.stats.elements_untouched == 0);
    CHECK(e.stats.elements_multi == 0);
    CHECK(e.map.toucher(389)->thread == Dim3{5, 0, 0});
}

TEST_CASE("a malformed lesson file is refused with a message") {
    CHECK_THROWS_WITH_AS(parse_lesson("{"), doctest::Contains("malformed lesson"), std::runtime_error);
    CHECK_THROWS_AS(parse_lesson(R"({"name":"x","title":"t","explanation":"e","look_for":"l","kernel":"warp","n":5})"),
                    std::runtime_error);
    CHECK_THROWS_AS(parse_lesson(R"({"name":"x","title":"t","explanation":"e","look_for":"l","kernel":"matmul",
        "rows":10,"cols":10,"inner":4,"a_rows":5})"),
                    std::runtime_error);  // A too small for C's guard
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
