// Window command line; see window_command.hpp.
#include "app/commands/window_command.hpp"

#include <cstdio>

#include "app/launch/backend_choice.hpp"
#include "app/launch/input_file.hpp"
#include "viz/draw/legend.hpp"
#include "app/launch/session_file.hpp"
#include "app/launch/source_launch.hpp"

namespace threadmap {

int run_window_command(WindowCommandOptions o) {
    const auto fail = [](const std::string& why) {
        std::fprintf(stderr, "threadmap: %s\n", why.c_str());
        return 2;
    };
    WindowOptions& w = o.window;
    if (!o.window_size.empty()) {
        const auto size = parse_size(o.window_size, "--window-size", 200, 150, 16384);
        if (!size.value) return fail(size.error);
        w.width = size.value->width;
        w.height = size.value->height;
    }
    if (!o.session.empty()) {  // a session file gives the launch and the view (--color over its colour)
        const auto session = read_session(o.session);
        if (!session.value) return fail(session.error);
        if (const auto taken = take_session_launch(o.launch, *session.value, o.session); !taken.done())
            return fail(taken.error);
        if (!w.color && !session.value->color.empty()) w.color = session.value->color;
        w.tab = session.value->tab;
    }
    w.backend = o.launch.backend;
    if (w.backend == "cuda") {  // insisted on and impossible: say so before opening a window
        const BackendResult b = choose_backend("cuda");
        if (!b.value) return fail(b.error);
    }
    if (any_launch_option(o.launch)) {
        auto resolved = resolve_launch(o.launch);
        if (!resolved.value) return fail((o.session.empty() ? "" : o.session + ": ") + resolved.error);
        if (const Outcome<void> problem = open_on_lesson_view(*resolved.value, o.launch); !problem.done())
            return fail(problem.error);
        w.launch = resolved.value;
        if (!o.launch.source_text.empty()) {  // a session's kernel: its text, for the Editor
            w.source = o.launch;
            w.source_text = o.launch.source_text;
        } else if (!o.launch.source.empty()) {  // read again for the Editor (load_source_kernel read it)
            const auto text = read_input_file(o.launch.source, kMaxSourceBytes, "kernel source");
            if (!text.value) return fail(text.error);
            w.source = o.launch;
            w.source_text = *text.value;
        }
    }
    if (w.color && !parse_color_mode(*w.color))
        return fail("unknown colour mode '" + *w.color + "'; choose " + color_mode_names());
    if (!w.screenshot.empty() && w.quit_after_frames == 0) w.quit_after_frames = 3;
    return run_window(w);
}

}  // namespace threadmap
