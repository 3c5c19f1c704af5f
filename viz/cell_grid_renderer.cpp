// Cell grid renderer; see cell_grid_renderer.hpp. Sets every piece of GL state it relies on.
#include "cell_grid_renderer.hpp"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

namespace threadmap {

namespace {

glm::vec4 to_vec4(Rgba8 c) { return glm::vec4(c.r, c.g, c.b, c.a) / 255.0f; }

}  // namespace

OperandRects operand_rects(const MapLayout& m) {
    const double gap = std::max(2.0, 0.03 * std::max(m.width, m.height));
    const double k = double(m.workload.inner);
    return {{-gap - k, 0, -gap, double(m.workload.a_rows)}, {0, -gap - k, double(m.workload.b_cols), -gap}};
}

WorldRect scene_bounds(const MapLayout& m) {
    WorldRect r{0, 0, double(m.width), double(m.height)};
    if (m.is_matrix()) {
        const OperandRects o = operand_rects(m);
        r.x0 = o.a.x0;
        r.y0 = o.b.y0;
        r.x1 = std::max(r.x1, o.b.x1);
        r.y1 = std::max(r.y1, o.a.y1);
    }
    return r;
}

CellGridRenderer::CellGridRenderer()
    : program_(make_program("cell_grid.vert", "cell_grid.frag")), vao_(make_vertex_array()), texture_(make_texture()) {
    const GLuint p = program_.get();
    u_projection_ = glGetUniformLocation(p, "u_projection");
    u_rect_ = glGetUniformLocation(p, "u_rect");
    u_kind_ = glGetUniformLocation(p, "u_kind");
    u_pixels_per_cell_ = glGetUniformLocation(p, "u_pixels_per_cell");
    u_block_ = glGetUniformLocation(p, "u_block");
    u_background_ = glGetUniformLocation(p, "u_background");
    u_solid_ = glGetUniformLocation(p, "u_solid");
    u_highlight_ = glGetUniformLocation(p, "u_highlight");
    u_highlight_color_ = glGetUniformLocation(p, "u_highlight_color");
    u_cells_ = glGetUniformLocation(p, "u_cells");
}

int CellGridRenderer::max_texture_side() {
    GLint side = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &side);
    return side;
}

void CellGridRenderer::upload(const Rgba8* cells, uint32_t width, uint32_t height) {
    glActiveTexture(GL_TEXTURE0);
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, texture_.get()));
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    if (width != width_ || height != height_) {
        GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GL_RGBA,
                              GL_UNSIGNED_BYTE, cells));
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        width_ = width;
        height_ = height;
    } else {
        GL_CHECK(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GLsizei(width), GLsizei(height), GL_RGBA, GL_UNSIGNED_BYTE,
                                 cells));
    }
}

void CellGridRenderer::begin(const View& view, const SceneTarget& t) const {
    const ViewRect& r = t.viewport;
    const GLint x = GLint(r.x), y = GLint(t.framebuffer_height - r.y - r.h);
    glViewport(x, y, GLsizei(r.w), GLsizei(r.h));
    glEnable(GL_SCISSOR_TEST);
    glScissor(x, y, GLsizei(r.w), GLsizei(r.h));
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_STENCIL_TEST);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glUseProgram(program_.get());
    glBindVertexArray(vao_.get());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture_.get());
    glUniform1i(u_cells_, 0);
    glUniformMatrix4fv(u_projection_, 1, GL_FALSE, glm::value_ptr(projection(view, r)));
    glUniform1f(u_pixels_per_cell_, float(view.zoom));
    glUniform4fv(u_background_, 1, glm::value_ptr(to_vec4(kSceneBackground)));
    const glm::vec4 bg = to_vec4(kSceneBackground);
    glClearColor(bg.r, bg.g, bg.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
}

void CellGridRenderer::draw_rect(const WorldRect& r) const {
    glUniform4f(u_rect_, float(r.x0), float(r.y0), float(r.x1), float(r.y1));
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void CellGridRenderer::draw_scene(const MapLayout& m, const View& view, const SceneTarget& t,
                                  std::optional<glm::ivec2> hovered) const {
    begin(view, t);
    glUniform1i(u_kind_, 0);
    glUniform2i(u_block_, GLint(m.block_w), GLint(m.block_h));
    draw_rect({0, 0, double(std::min(m.width, width_)), double(std::min(m.height, height_))});
    if (m.is_matrix()) {
        const OperandRects o = operand_rects(m);
        glUniform1i(u_kind_, 1);
        glUniform4f(u_solid_, 0.36f, 0.38f, 0.42f, 1);
        glUniform4f(u_highlight_color_, 1.0f, 0.85f, 0.25f, 1);
        glUniform2i(u_highlight_, -1, hovered ? hovered->y : -1);  // A: row i
        draw_rect(o.a);
        glUniform2i(u_highlight_, hovered ? hovered->x : -1, -1);  // B: column j
        draw_rect(o.b);
    }
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace threadmap
