// A session file (.threadmap): what is on screen, to hand a class or open again — the lesson or
// the kernel (a learner's CUDA text inline, with its bindings), the launch, and the view (colour
// mode, centre tab). The window saves it (Save session) and opens it (`threadmap FILE`, or a
// file dropped on the window); `render --session FILE` draws it. JSON:
//   {"threadmap_session": 1,
//    "launch": {"preset", "kernel", "n", "rows", "cols", "inner", "block", "grid", "params": {…},
//               "array", "access", "phase", "shared_block",
//               "source_text", "entry", "binds": […], "dynamic_shared"},   (each optional)
//    "view": {"color", "tab"}}
// The launch's values are the command line's (numbers as numbers or text): the same checks
// refuse a bad one, with the file and field named, and nothing changes.
#pragma once

#include <string>

#include "launch_options.hpp"
#include "outcome.hpp"

namespace threadmap {

inline constexpr const char* kSessionExtension = ".threadmap";

struct Session {
    LaunchOptions launch;  // a learner's kernel: source_text set, source its name for messages
    std::string color;     // a colour mode name; empty: the default
    std::string tab;       // map, timing, occupancy, memory or editor; empty: map
};

// Reads and checks a session file (its launch resolved as the command line would).
Outcome<Session> read_session(const std::string& path);
Outcome<Session> parse_session(const std::string& json_text, const std::string& name);

// The session's JSON text (what Save session writes).
std::string session_json(const Session& session);

// The command line's options for a launch on screen (a registry kernel or a lesson's); a
// learner's kernel adds its text and bindings to them.
LaunchOptions options_of(const ResolvedLaunch& launch);

}  // namespace threadmap
