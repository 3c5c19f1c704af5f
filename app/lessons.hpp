// Lessons: presets of kernel, shape and launch, each with an explanation in our own words.
// They live in assets/lessons/*.json and are embedded into the binary at build time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "launch_config.hpp"
#include "workload.hpp"

namespace threadmap {

struct Lesson {
    std::string name;  // what --preset takes
    std::string title;
    std::string explanation;
    std::string look_for;  // what the map shows that teaches it
    Workload workload;
    std::optional<Dim3> block;  // absent: the CLI's default block
    std::optional<Dim3> grid;   // absent: the covering grid for the block
};

// Parses one lesson file; throws std::runtime_error naming the problem.
Lesson parse_lesson(const std::string& json_text);

// Every embedded lesson, sorted by name.
const std::vector<Lesson>& lessons();
const Lesson* find_lesson(const std::string& name);
std::string lesson_names();  // "a, b, c" for messages

}  // namespace threadmap
