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

#include "app/launch/launch_options.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

inline constexpr const char* kSessionExtension = ".threadmap";

struct Session {
    LaunchOptions launch;  // a learner's kernel: source_text set, source its name for messages
    std::string color;     // a colour mode name; empty: the default
    std::string tab;       // map, timing, occupancy, memory or editor; empty: map
};

// Reads and checks a session file: its fields and their types here; its launch's values are
// checked where the launch is resolved, as the command line's are.
Outcome<Session> read_session(const std::string& path);
Outcome<Session> parse_session(const std::string& json_text, const std::string& name);

// The session's launch in place of `launch`, which keeps its --backend (the machine's, not
// the session's); an error where other launch options were given with it.
Outcome<void> take_session_launch(LaunchOptions& launch, const Session& session, const std::string& name);

// The session's JSON text (what Save session writes); an error where the kernel's text is not
// UTF-8 (JSON holds UTF-8 only).
Outcome<std::string> session_json(const Session& session);

// The command line's options for a launch on screen (a registry kernel or a lesson's: a
// lesson's shape, which may have no flag of its own — seed-matmul's A of 300×200 — is left to
// its preset where unchanged); a learner's kernel adds its text and bindings to them.
LaunchOptions options_of(const ResolvedLaunch& launch);

}  // namespace threadmap
