// The window's side of session files (session_file.hpp): Save session writes what is on screen
// into the export folder; a file dropped on the window (or given as `threadmap FILE`) opens.
#pragma once

#include <string>

#include "app/window_state/app_state.hpp"

namespace threadmap {

// Writes the session of the map on screen; the status bar says where, or why not.
void save_session(AppState& state);

// Opens a session file: its lesson or kernel, launch, colour and tab. A bad file is a message
// in the status bar and changes nothing.
void open_session(AppState& state, const std::string& path);

// The frame's requests: Save session, and files dropped on the window.
void handle_session_requests(AppState& state);

}  // namespace threadmap
