// EGL offscreen context; see offscreen_context.hpp. <epoxy/gl.h> comes before the EGL
// headers, as libepoxy requires.
#include "offscreen_context.hpp"

#include <epoxy/egl.h>

#include <stdexcept>
#include <vector>

#include "gl.hpp"

namespace threadmap {

struct OffscreenContext::Egl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
};

namespace {

// Makes a desktop GL 3.3 core context current on `display`; empty string on success.
std::string make_current(EGLDisplay display, EGLContext& context) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) return "eglInitialize failed";
    if (!eglBindAPI(EGL_OPENGL_API)) return "desktop OpenGL is not available through EGL";
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    eglChooseConfig(display, config_attribs, &config, 1, &count);
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context = eglCreateContext(display, count > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) return "no OpenGL 3.3 core context";
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) return "eglMakeCurrent failed";
    return {};
}

}  // namespace

OffscreenContext::OffscreenContext(bool prefer_device) : egl_(std::make_unique<Egl>()) {
    std::string tried;
    const bool has_platform = epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base");
    if (!has_platform) throw std::runtime_error("EGL has no EGL_EXT_platform_base: cannot draw without a display");

    const auto attempt = [&](EGLenum platform, void* native, const char* name) {
        EGLDisplay d = eglGetPlatformDisplayEXT(platform, native, nullptr);
        if (d == EGL_NO_DISPLAY) {
            tried += std::string(tried.empty() ? "" : "; ") + name + ": no display";
            return false;
        }
        EGLContext c = EGL_NO_CONTEXT;
        const std::string why = make_current(d, c);
        if (!why.empty()) {
            tried += std::string(tried.empty() ? "" : "; ") + name + ": " + why;
            if (c != EGL_NO_CONTEXT) eglDestroyContext(d, c);
            eglTerminate(d);
            return false;
        }
        egl_->display = d;
        egl_->context = c;
        description_ = std::string(name) + ", " + reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        return true;
    };

    const auto surfaceless = [&] {
        return epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless") &&
               attempt(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, "EGL surfaceless (Mesa)");
    };
    const auto device = [&] {
        if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device")) return false;
        EGLint n = 0;
        eglQueryDevicesEXT(0, nullptr, &n);
        std::vector<EGLDeviceEXT> devices(size_t(std::max(n, 0)));
        if (n > 0 && eglQueryDevicesEXT(n, devices.data(), &n))
            for (EGLint i = 0; i < n; ++i)
                if (attempt(EGL_PLATFORM_DEVICE_EXT, devices[size_t(i)], "EGL device")) return true;
        return false;
    };
    if (prefer_device ? device() || surfaceless() : surfaceless() || device()) return;
    throw std::runtime_error("no offscreen OpenGL 3.3 context: " +
                             (tried.empty() ? std::string("no EGL platform") : tried));
}

OffscreenContext::~OffscreenContext() {
    if (egl_->display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(egl_->display, egl_->context);
    eglTerminate(egl_->display);
}

}  // namespace threadmap
