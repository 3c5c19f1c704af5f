// The UI font: DejaVu Sans where it is installed (readable on a projector), else ImGui's own.
#pragma once

struct ImFont;
struct ImGuiIO;

namespace threadmap {

inline constexpr float kBaseFontPx = 17;  // UI text at UI scale 1
inline constexpr const char* kUiFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// Clears io.Fonts and adds the UI font at size_px; returns it (also the default font).
ImFont* load_ui_font(ImGuiIO& io, float size_px);

}  // namespace threadmap
