// Sessions in the window; see session_actions.hpp.
#include "app/window_state/session_actions.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "app/window_state/export_names.hpp"
#include "app/window_state/kernel_editor.hpp"
#include "app/launch/lessons.hpp"
#include "app/launch/session_file.hpp"

namespace threadmap {

void save_session(AppState& state) {
    if (!state.picture) {
        state.message = "no map to save yet: Save session waits for the first map";
        return;
    }
    Session s;
    s.launch = options_of(state.picture->launch);
    if (map_shows_editor_kernel(state)) {  // the learner's text, bound as the Editor binds it
        const KernelEditor& editor = state.editor;
        s.launch.source_text = editor.text;
        s.launch.entry = editor.entry;
        for (size_t i = 0; i < editor.params.size() && i < editor.binds.size(); ++i)
            s.launch.binds.push_back(editor.params[i].first + "=" + editor.binds[i]);
        s.launch.dynamic_shared = editor.dynamic_shared;
    }
    s.color = state.settings.color_mode;
    s.tab = centre_view_name(state.shown_view);
    const auto text = session_json(s);
    if (!text.value) {
        state.message = "could not save the session: " + text.error;
        return;
    }
    const ResolvedLaunch& resolved = state.picture->launch;
    const std::string what = !resolved.preset.empty()       ? resolved.preset
                             : s.launch.source_text.empty() ? resolved.kernel_name()
                                                            : "kernel";
    const std::string path = (std::filesystem::path(state.settings.export_dir) /
                              ("threadmap-" + what + "-" + file_stamp(std::time(nullptr)) + kSessionExtension))
                                 .string();
    std::ofstream out(path, std::ios::binary);
    out << *text.value;
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
    if (!s.launch.source_text.empty()) {
        // A learner's kernel: compiled off the UI thread by the Editor (a hostile text may take
        // the whole time limit); its launch and array apply once it compiles.
        KernelEditor::SessionLaunch launch{state.edit.launch.block, state.edit.launch.grid, s.launch.array,
                                           s.launch.access == "read"};
        for (const auto& [field, text, dim] : {std::tuple{"launch.block", &s.launch.block, &launch.block},
                                               std::tuple{"launch.grid", &s.launch.grid, &launch.grid}}) {
            if (text->empty()) continue;
            const auto parsed = parse_dim3(*text, field);
            if (!parsed.value) {
                state.message = path + ": " + parsed.error;
                return;
            }
            *dim = *parsed.value;
        }
        state.editor.session = launch;
        open_in_editor(state, s.launch.source_text, s.launch.entry, s.launch.binds, s.launch.dynamic_shared);
    } else {
        // A lesson or a registry kernel: resolved and opened on its lesson's view, as the
        // command line opens it, before anything changes.
        auto resolved = resolve_launch(s.launch);
        if (!resolved.value) {
            state.message = path + ": " + resolved.error;
            return;
        }
        if (const Outcome<void> problem = open_on_lesson_view(*resolved.value, s.launch); !problem.done()) {
            state.message = path + ": " + problem.error;
            return;
        }
        if (!s.launch.preset.empty())
            select_lesson(state, s.launch.preset);
        else
            state.lesson.clear();  // a launch of no lesson: no lesson's card over it
        state.edit = *resolved.value;
        state.editor.running = false;
        state.pending.apply = true;
    }
    if (!s.color.empty()) state.settings.color_mode = s.color;
    state.pending.recolor = true;
    state.open_view = centre_view_named(s.tab).value_or(CentreView::Map);
    state.message = "opened session " + path;
}

void handle_session_requests(AppState& state) {
    if (state.requests.save_session) save_session(state);
    state.requests.save_session = false;
    for (const std::string& path : state.requests.open_files) open_session(state, path);
    state.requests.open_files.clear();
}

}  // namespace threadmap
