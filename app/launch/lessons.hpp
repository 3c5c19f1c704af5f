// Lessons: presets of kernel, shape and launch, each with an explanation in our own words.
// They live in assets/lessons/*.json and are embedded into the binary at build time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "app/launch/launch_options.hpp"
#include "kernels/timing/timing_model.hpp"
#include "kernels/core/workload.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

// How a timing lesson sets up the Timing panel.
struct LessonTiming {
    std::string source = "modeled";  // measured | modeled
    std::string profile;             // a device profile, for modeled
    bool pinned = false;
    bool resident = false;
    bool first_launch = false;
    int repeats = 10;  // launches per run (with resident: copy once, launch this many times)
};

// Where the numbers in a lesson's text come from, when not from its own launch.
struct LessonSource {
    std::vector<std::string> figures;  // as written in the text: "1024", "1.4"
    std::string source;
};

// A lesson's own CUDA C++ kernel (a learner's kernel, run as `--source` runs one): its text,
// the __global__ function (empty: the only one) and a binding of each parameter (`--bind`'s
// NAME=… syntax).
struct LessonKernelText {
    std::string text;
    std::string entry;
    std::vector<std::string> binds;
    // "expect": the right result as a statement over the parameters (check --expect's syntax),
    // what `check --sweep-launches` and the Findings tab's sweep compare every launch with;
    // empty: none.
    std::string expect;
    // "array", "access": what its map shows (a __shared__ one: block 0's copy); empty: the
    // kernel's output, written.
    std::string array, access;
};

// How a lesson opens, so that its point is on the picture ("view" in its file).
struct LessonView {
    std::string color;  // a colour mode name (color_mode.hpp); empty: blockIdx
    std::string tab;    // the centre tab: map, timing, occupancy, memory or editor; empty: by the lesson's kind
    // The mapped array's (an array of the registry kernel, or of the lesson's own): as --array,
    // --access, --phase and --shared-block take them; empty: the kernel's output, written.
    std::string array, access, phase, shared_block;
    std::vector<uint64_t> pin;  // an element of the mapped array to pin and centre: [i] or [row, column]
    bool run = false;           // a timing lesson: its timing runs when it opens (modelled with no GPU)
};

// The groups of the curriculum, in the order a course teaches them.
const std::vector<std::string>& lesson_groups();

struct Lesson {
    std::string name;  // what --preset takes
    std::string title;
    std::string group;    // one of lesson_groups()
    int order = 0;        // its place in the curriculum (1 first)
    std::string summary;  // one line: what it shows (default: the title)
    LessonView view;
    std::string explanation;  // {placeholders}: lesson_text.hpp; `code` in backquotes
    std::string look_for;     // what the map shows that teaches it
    std::vector<LessonSource> sources;
    // The program the Code tab shows and the timing model times: the tutorial's numba code
    // passes float64 host arrays; a fixed version copies float32 arrays explicitly.
    TimedProgram program;
    bool store_in_loop = false;  // matmul as the tutorial indents it: C[i, j] = tmp inside the k loop
    Workload workload;
    // A kernel of the registry other than the tutorial's four ("params": its parameters by
    // name, the others at their defaults; "array": the array the map shows, default its output).
    std::optional<ModelKernel> model;
    // A lesson with its own kernel text ("source": its lines, "entry", "bind") instead of a
    // "kernel" of the registry; compiled when the lesson is opened.
    std::optional<LessonKernelText> own_kernel;
    std::optional<Dim3> block;           // absent: the CLI's default block
    std::optional<Dim3> grid;            // absent: the covering grid for the block
    std::optional<LessonTiming> timing;  // a timing lesson: opens the Timing panel set up so
    // An occupancy lesson: opens the Occupancy tab on this device profile's GPU (`occupancy
    // --preset` uses it too).
    std::string occupancy_profile;
    // A memory lesson ("memory": true): opens the Memory tab; its text has the memory view's
    // figures (lesson_text.hpp).
    bool memory = false;
    // A memory lesson of a model kernel: another kernel with the same parameters whose figures
    // its text sets against its own ({other_…}), e.g. transpose-tiled-padded.
    std::string compare_kernel;
    // Another array of its kernel drawn beside the mapped one (tiled-matmul: Bs beside As).
    std::string compare_array;
    // A memory lesson of a model kernel: the same kernel (or compare_kernel) with these
    // parameters is the launch set against it, e.g. copy-offset with offset 0.
    std::optional<Params> compare_params;
};

// The centre tab a lesson opens on: its view's, else by its kind (timing, occupancy, memory
// lessons open on their tab), else the map.
std::string lesson_tab(const Lesson& lesson);

// Parses one lesson file, or says what is wrong with it (the field by name).
Outcome<Lesson> parse_lesson(const std::string& json_text);

// Every embedded lesson, in the curriculum's order.
const std::vector<Lesson>& lessons();
const Lesson* find_lesson(const std::string& name);
// What the lesson the launch came from draws beside its picture (compare_kernel, compare_array),
// while the launch runs that lesson's kernel (its launch changed or not: ResolvedLaunch::lesson)
// and maps another array than the one compared; none otherwise.
Comparison lesson_comparison(const ResolvedLaunch& launch);

// What a timing run of a lesson is (the window's Timing panel, `bench` and `render --timing`
// start from it; flags add to it): the lesson's program and Timing setup, or the defaults
// (CUDA C++, float32, explicit copies, pageable, 10 launches) without a lesson.
struct LessonRun {
    TimedProgram program;
    bool pinned = false;
    bool resident = false;
    int repeats = 10;
    std::string profile;       // the device profile a modeled run uses, if the lesson names one
    bool first_launch = true;  // a figure shows the first launch's cost (a lesson with a Timing setup decides)
};
LessonRun lesson_run(const Lesson* lesson);
std::string lesson_names();  // "a, b, c" for messages

}  // namespace threadmap
