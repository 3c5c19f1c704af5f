// EGL offscreen context; see offscreen_context.hpp. <epoxy/gl.h> comes before the EGL
// headers, as libepoxy requires.
#include "viz/draw/offscreen_context.hpp"

#include <dlfcn.h>
#include <epoxy/egl.h>
#include <link.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "kernels/core/outcome.hpp"
#include "viz/draw/gl.hpp"

namespace threadmap {

struct OffscreenContext::Egl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
};

namespace {

// Makes a desktop GL 3.3 core context current on `display`.
Outcome<void> make_current(EGLDisplay display, EGLContext& context) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) return failed("eglInitialize failed", Failure::Unsupported);
    if (!eglBindAPI(EGL_OPENGL_API)) return failed("desktop OpenGL is not available through EGL", Failure::Unsupported);
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    eglChooseConfig(display, config_attribs, &config, 1, &count);
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context = eglCreateContext(display, count > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) return failed("no OpenGL 3.3 core context", Failure::Unsupported);
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
        return failed("eglMakeCurrent failed", Failure::Unsupported);
    return done();
}

}  // namespace

std::vector<size_t> egl_devices_to_try(const std::vector<EglDeviceInfo>& devices, std::optional<int> cuda_device) {
    std::vector<size_t> order;
    for (size_t i = 0; i < devices.size(); ++i) {
        const bool software = devices[i].extensions.find("EGL_MESA_device_software") != std::string::npos;
        if (cuda_device ? devices[i].cuda_device == cuda_device : !software) order.push_back(i);
    }
    return order;
}

namespace {

// libepoxy calls abort() when libEGL.so.1 is missing; asking the loader first turns that into
// a message. The handle is closed again: libepoxy opens the library itself.
Outcome<void> require_libegl() {
    void* egl = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!egl) {
        const char* why = dlerror();
        return failed(std::string("libEGL.so.1 cannot be loaded (") + (why ? why : "not found") +
                          "): install libegl1 to draw without a window",
                      Failure::Unsupported);
    }
    dlclose(egl);
    return done();
}

// Mesa unloads its driver (swrast_dri.so) at eglTerminate, before LeakSanitizer checks at
// exit: the driver's one-time allocations then name no library, and tests/lsan.supp cannot
// suppress them (render exited 1 under ASan). Built with the sanitizers, the driver stays.
void keep_gl_driver_loaded() {
#if defined(__SANITIZE_ADDRESS__)
    std::vector<std::string> drivers;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
            const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
            if (name.ends_with("_dri.so")) static_cast<std::vector<std::string>*>(out)->emplace_back(name);
            return 0;
        },
        &drivers);
    for (const std::string& d : drivers) dlopen(d.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
#endif
}

std::vector<EGLDeviceEXT> egl_devices() {
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device")) return {};
    EGLint n = 0;
    if (!eglQueryDevicesEXT(0, nullptr, &n) || n <= 0) return {};
    std::vector<EGLDeviceEXT> devices(static_cast<size_t>(n));
    if (!eglQueryDevicesEXT(n, devices.data(), &n)) return {};
    devices.resize(size_t(std::max(n, 0)));
    return devices;
}

EglDeviceInfo describe_device(EGLDeviceEXT d) {
    EglDeviceInfo info;
    const char* ext = eglQueryDeviceStringEXT(d, EGL_EXTENSIONS);
    info.extensions = ext ? ext : "";
    EGLAttrib cuda = -1;
    if (info.extensions.find("EGL_NV_device_cuda") != std::string::npos &&
        eglQueryDeviceAttribEXT(d, EGL_CUDA_DEVICE_NV, &cuda))
        info.cuda_device = int(cuda);
    return info;
}

}  // namespace

OffscreenContext::OffscreenContext() : egl_(std::make_unique<Egl>()) {}

Outcome<std::unique_ptr<OffscreenContext>> OffscreenContext::open(std::optional<int> cuda_device) {
    if (const Outcome<void> egl = require_libegl(); !egl.done()) return failure_of(egl);
    std::unique_ptr<OffscreenContext> made(new OffscreenContext());
    std::string tried;
    const bool has_platform = epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base");
    if (!has_platform)
        return failed("EGL has no EGL_EXT_platform_base: cannot draw without a display", Failure::Unsupported);

    const auto attempt = [&](EGLenum platform, void* native, const std::string& name) {
        EGLDisplay d = eglGetPlatformDisplayEXT(platform, native, nullptr);
        if (d == EGL_NO_DISPLAY) {
            tried += (tried.empty() ? "" : "; ") + name + ": no display";
            return false;
        }
        EGLContext c = EGL_NO_CONTEXT;
        const Outcome<void> current = make_current(d, c);
        if (!current.done()) {
            tried += (tried.empty() ? "" : "; ") + name + ": " + current.error;
            if (c != EGL_NO_CONTEXT) eglDestroyContext(d, c);
            eglTerminate(d);
            return false;
        }
        keep_gl_driver_loaded();
        made->egl_->display = d;
        made->egl_->context = c;
        made->description_ = name + ", " + reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        return true;
    };

    const auto surfaceless = [&] {
        return epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless") &&
               attempt(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, "EGL surfaceless (Mesa)");
    };
    const auto device = [&] {
        const std::vector<EGLDeviceEXT> devices = egl_devices();
        std::vector<EglDeviceInfo> infos;
        for (EGLDeviceEXT d : devices) infos.push_back(describe_device(d));
        for (size_t i : egl_devices_to_try(infos, cuda_device)) {
            const std::string name = cuda_device ? "EGL device of CUDA device " + std::to_string(*cuda_device)
                                                 : "EGL device " + std::to_string(i);
            if (attempt(EGL_PLATFORM_DEVICE_EXT, devices[i], name)) return true;
        }
        if (cuda_device)
            tried += std::string(tried.empty() ? "" : "; ") + "no EGL device is CUDA device " +
                     std::to_string(*cuda_device) + " (" + std::to_string(devices.size()) + " EGL devices)";
        return false;
    };
    if (cuda_device) {
        made->on_cuda_device_ = device();
        if (made->on_cuda_device_) return {std::move(made), {}};
        if (surfaceless()) {  // still a picture, painted on the host; say why not on the GPU
            made->description_ += " (" + tried + ")";
            return {std::move(made), {}};
        }
    } else if (surfaceless() || device()) {
        return {std::move(made), {}};
    }
    return failed("no offscreen OpenGL 3.3 context: " + (tried.empty() ? std::string("no EGL platform") : tried),
                  Failure::Device);
}

OffscreenContext::~OffscreenContext() {
    if (egl_->display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(egl_->display, egl_->context);
    eglTerminate(egl_->display);
}

}  // namespace threadmap
