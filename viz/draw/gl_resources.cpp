// GL object helpers; see gl_resources.hpp.
#include "viz/draw/gl_resources.hpp"

#include <cstring>
#include <string>

#include "kernels/core/embedded_file.hpp"

namespace threadmap {

extern const EmbeddedFile kEmbeddedShaders[];  // shaders/*.vert|frag, see viz/draw/CMakeLists.txt
extern const int kEmbeddedShadersCount;

namespace {

const char* shader_text(const char* name) {
    for (int i = 0; i < kEmbeddedShadersCount; ++i)
        if (std::strcmp(kEmbeddedShaders[i].name, name) == 0) return kEmbeddedShaders[i].text;
    note_gl_failure(std::string("no embedded shader named ") + name);
    return "";
}

GLuint compile(GLenum type, const char* name, const std::string& defines) {
    const GLuint shader = glCreateShader(type);
    std::string text = shader_text(name);
    const size_t version_end = text.find('\n') + 1;  // "#version …" must stay first
    text.insert(version_end, defines);
    const char* source = text.c_str();
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        note_gl_failure(std::string("shader ") + name + " did not compile: " + log);
    }
    return shader;
}

}  // namespace

GlTexture make_texture() {
    GLuint n = 0;
    GL_CHECK(glGenTextures(1, &n));
    return GlTexture(n);
}

GlBuffer make_buffer() {
    GLuint n = 0;
    GL_CHECK(glGenBuffers(1, &n));
    return GlBuffer(n);
}

GlVertexArray make_vertex_array() {
    GLuint n = 0;
    GL_CHECK(glGenVertexArrays(1, &n));
    return GlVertexArray(n);
}

GlProgram make_program(const char* vertex_name, const char* fragment_name, const std::string& defines) {
    const GLuint vs = compile(GL_VERTEX_SHADER, vertex_name, defines);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_name, defines);
    GlProgram program(glCreateProgram());
    glAttachShader(program.get(), vs);
    glAttachShader(program.get(), fs);
    glLinkProgram(program.get());
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(program.get(), sizeof log, nullptr, log);
        note_gl_failure(std::string("shader program did not link: ") + log);
        return GlProgram();  // glUseProgram(0) draws nothing; the failure is kept
    }
    return program;
}

RenderTarget::RenderTarget(int width, int height) : width_(width), height_(height), color_(make_texture()) {
    GL_CHECK(glBindTexture(GL_TEXTURE_2D, color_.get()));
    GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint fbo = 0;
    GL_CHECK(glGenFramebuffers(1, &fbo));
    fbo_ = GlFramebufferName(fbo);
    GL_CHECK(glBindFramebuffer(GL_FRAMEBUFFER, fbo));
    GL_CHECK(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_.get(), 0));
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        note_gl_failure("offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                        " is incomplete");
}

void RenderTarget::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
    glViewport(0, 0, width_, height_);
}

}  // namespace threadmap
