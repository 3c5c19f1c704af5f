// `threadmap lessons`; see lessons_command.hpp.
#include "app/commands/lessons_command.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/launch/lessons.hpp"

namespace threadmap {

int run_lessons_command(const LessonsCommandOptions& o) {
    std::string out;
    if (o.format == "json") {
        nlohmann::json list = nlohmann::json::array();
        for (const Lesson& lesson : lessons())
            list.push_back({{"id", lesson.name},
                            {"title", lesson.title},
                            {"group", lesson.group},
                            {"order", lesson.order},
                            {"summary", lesson.summary},
                            {"opens_on", lesson_tab(lesson)}});
        out = nlohmann::json{{"lessons", list}}.dump(2) + "\n";
    } else {
        std::string group;
        for (const Lesson& lesson : lessons()) {
            if (lesson.group != group) {  // a heading per group, a blank line between groups
                if (!group.empty()) out += "\n";
                group = lesson.group;
                out += group + "\n";
            }
            char line[64];
            std::snprintf(line, sizeof line, "  %2d  %-28s ", lesson.order, lesson.name.c_str());
            out += line + lesson.title + "\n";
        }
        out += "\nOpen one with: threadmap --preset ID  (or render --preset ID, check --preset ID, …)\n";
    }
    // A failed write (a full disk, a closed pipe) is main's to report, with its reason.
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace threadmap
