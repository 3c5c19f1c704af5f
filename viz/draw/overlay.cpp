// Overlay drawing and headless ImGui; see overlay.hpp.
#include "viz/draw/overlay.hpp"

#include <imgui_impl_opengl3.h>

#include "viz/draw/ui_font.hpp"

namespace threadmap {

Overlay::Overlay(int width, int height) : list_(ImGui::GetDrawListSharedData()), width_(width), height_(height) {
    list_._ResetForNewFrame();
    list_.PushTextureID(ImGui::GetIO().Fonts->TexID);
    list_.PushClipRect(ImVec2(0, 0), ImVec2(float(width), float(height)));
}

ImFont* Overlay::font() { return ImGui::GetIO().FontDefault ? ImGui::GetIO().FontDefault : ImGui::GetFont(); }

void Overlay::render() {
    ImDrawList* lists[] = {&list_};
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list_.VtxBuffer.Size;
    data.TotalIdxCount = list_.IdxBuffer.Size;
    data.DisplayPos = ImVec2(0, 0);
    data.DisplaySize = ImVec2(float(width_), float(height_));
    data.FramebufferScale = ImVec2(1, 1);
    ImGui_ImplOpenGL3_RenderDrawData(&data);
}

HeadlessImGui::HeadlessImGui(int width, int height, float font_px) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // a headless run leaves no files behind
    io.DisplaySize = ImVec2(float(width), float(height));
    io.DeltaTime = 1.0f / 60;
    load_ui_font(io, font_px);
    ImGui_ImplOpenGL3_Init("#version 330");
    ImGui_ImplOpenGL3_NewFrame();  // builds the font texture
    ImGui::NewFrame();             // sets the current font for draw lists
}

HeadlessImGui::~HeadlessImGui() {
    ImGui::EndFrame();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
}

}  // namespace threadmap
