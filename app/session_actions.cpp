// Sessions in the window; see session_actions.hpp.
#include "session_actions.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>

#include "export_names.hpp"
#include "kernel_editor.hpp"
#include "lessons.hpp"
#include "session_file.hpp"

namespace threadmap {

namespace {

const char* tab_name(CentreView v) {
    switch (v) {
        case CentreView::Timing:
            return "timing";
        case CentreView::Occupancy:
            return "occupancy";
        case CentreView::Memory:
            return "memory";
        case CentreView::Editor:
            return "editor";
        case CentreView::Map:
            break;
    }
    return "map";
}

}  // namespace

void save_session(AppState& state) {
    if (!state.picture) return;
    Session s;
    s.launch = options_of(state.picture->launch);
    if (map_shows_editor_kernel(state)) {  // the learner's text, bound as the Editor binds it
        const KernelEditor& e = state.editor;
        s.launch.source_text = e.text;
        s.launch.entry = e.entry;
        for (size_t i = 0; i < e.params.size() && i < e.binds.size(); ++i)
            s.launch.binds.push_back(e.params[i].first + "=" + e.binds[i]);
        s.launch.dynamic_shared = e.dynamic_shared;
    }
    s.color = state.settings.color_mode;
    s.tab = tab_name(state.shown_view);
    const ResolvedLaunch& r = state.picture->launch;
    const std::string what = !r.preset.empty() ? r.preset : s.launch.source_text.empty() ? r.kernel_name() : "kernel";
    const std::string path = (std::filesystem::path(state.settings.export_dir) /
                              ("threadmap-" + what + "-" + file_stamp(std::time(nullptr)) + kSessionExtension))
                                 .string();
    std::ofstream out(path, std::ios::binary);
    out << session_json(s);
    out.close();
    state.message = out ? "saved session " + path + " (open it with threadmap FILE, or drop it on the window)"
                        : "could not write the session to " + path;
}

void open_session(AppState& state, const std::string& path) {
    const auto session = read_session(path);
    if (!session.value) {
        state.message = session.error;
        return;
    }
    const Session& s = *session.value;
    if (!s.color.empty() && !parse_color_mode(s.color)) {
        state.message = path + ": view.color: '" + s.color + "' is not a colour mode (" + color_mode_names() + ")";
        return;
    }
    if (!s.launch.source_text.empty()) {
        // A learner's kernel: compiled off the UI thread by the Editor (a hostile text may take
        // the whole time limit), at the session's block and grid.
        ResolvedLaunch launch = state.edit;
        for (const auto& [text, dim] :
             {std::pair{&s.launch.block, &launch.launch.block}, std::pair{&s.launch.grid, &launch.launch.grid}}) {
            if (text->empty()) continue;
            const auto parsed = parse_dim3(*text, "launch");
            if (!parsed.value) {
                state.message = path + ": " + parsed.error;
                return;
            }
            *dim = *parsed.value;
        }
        state.edit = launch;
        open_in_editor(state, s.launch.source_text, s.launch.entry, s.launch.binds, s.launch.dynamic_shared);
    } else {
        const auto resolved = resolve_launch(s.launch);
        if (!resolved.value) {
            state.message = path + ": " + resolved.error;
            return;
        }
        if (!s.launch.preset.empty()) select_lesson(state, s.launch.preset);
        state.edit = *resolved.value;
        state.editor.running = false;
        state.pending.apply = true;
    }
    if (!s.color.empty()) state.settings.color_mode = s.color;
    state.pending.recolor = true;
    state.open_view = centre_view_named(s.tab);
    state.message = "opened session " + path;
}

void handle_session_requests(AppState& state) {
    if (state.requests.save_session) save_session(state);
    state.requests.save_session = false;
    for (const std::string& path : state.requests.open_files) open_session(state, path);
    state.requests.open_files.clear();
}

}  // namespace threadmap
