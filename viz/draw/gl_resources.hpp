// Move-only owners of GL objects: each deletes its object in its destructor, in the context
// that must be current then (the window's or the offscreen one).
#pragma once

#include <string>
#include <utility>

#include "viz/draw/gl.hpp"

namespace threadmap {

template <void (*Delete)(GLuint)>
class GlName {
  public:
    GlName() = default;
    explicit GlName(GLuint name) : name_(name) {}
    GlName(GlName&& o) noexcept : name_(std::exchange(o.name_, 0)) {}
    GlName& operator=(GlName&& o) noexcept {
        std::swap(name_, o.name_);
        return *this;
    }
    GlName(const GlName&) = delete;
    GlName& operator=(const GlName&) = delete;
    ~GlName() {
        if (name_ != 0) Delete(name_);
    }
    GLuint get() const { return name_; }
    explicit operator bool() const { return name_ != 0; }

  private:
    GLuint name_ = 0;
};

namespace gl_delete {
inline void texture(GLuint n) { glDeleteTextures(1, &n); }
inline void buffer(GLuint n) { glDeleteBuffers(1, &n); }
inline void vertex_array(GLuint n) { glDeleteVertexArrays(1, &n); }
inline void framebuffer(GLuint n) { glDeleteFramebuffers(1, &n); }
inline void program(GLuint n) { glDeleteProgram(n); }
}  // namespace gl_delete

using GlTexture = GlName<gl_delete::texture>;
using GlBuffer = GlName<gl_delete::buffer>;
using GlVertexArray = GlName<gl_delete::vertex_array>;
using GlFramebufferName = GlName<gl_delete::framebuffer>;
using GlProgram = GlName<gl_delete::program>;

GlTexture make_texture();
GlBuffer make_buffer();
GlVertexArray make_vertex_array();

// Compiles and links two embedded shaders; `defines` (e.g. "#define X\n") go right after
// each shader's #version line. On failure: no program, and the GLSL log kept (take_gl_failure).
GlProgram make_program(const char* vertex_name, const char* fragment_name, const std::string& defines = "");

// An RGBA8 colour target to render into (exports, `threadmap render`); one GL cannot make
// (too large, no memory) is kept as the thread's GL failure.
class RenderTarget {
  public:
    RenderTarget(int width, int height);
    void bind() const;  // binds it and sets the viewport to the whole target
    int width() const { return width_; }
    int height() const { return height_; }

  private:
    int width_;
    int height_;
    GlTexture color_;
    GlFramebufferName fbo_;
};

}  // namespace threadmap
