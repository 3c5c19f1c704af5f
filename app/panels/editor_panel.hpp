// Editor: the learner's own CUDA C++ kernel — a monospace text with line numbers (the line of
// Clang's first error marked), a field per parameter for its binding, Clang's messages, and
// Run (Ctrl+Enter, or a short pause in typing). The map shows the kernel once it compiles and
// every parameter is bound; until then the last good map stays.
#pragma once

#include "app/window_state/app_state.hpp"

namespace threadmap {

void draw_editor_panel(AppState& state);

}  // namespace threadmap
