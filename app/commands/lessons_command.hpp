// `threadmap lessons`: the curriculum — each lesson's id (what --preset takes), title, group,
// order, a one-line summary and the tab it opens on — as text (by group) or JSON:
//   {"lessons": [{"id", "title", "group", "order", "summary", "opens_on"}, …]}  (in the curriculum's order)
#pragma once

#include <string>

namespace threadmap {

struct LessonsCommandOptions {
    std::string format = "text";  // text | json
};

int run_lessons_command(const LessonsCommandOptions& options);

}  // namespace threadmap
