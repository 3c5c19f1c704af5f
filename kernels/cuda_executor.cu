// The CUDA backend; see cuda_runtime.hpp. Host-side orchestration only: the kernels and
// their launchers are in cuda_kernels.cu.
//
// Sections: 1. device memory  2. devices  3. the mapped launch  4. measured timings
#include <algorithm>
#include <chrono>
#include <cstring>

#include "cuda_check.hpp"
#include "cuda_kernels.hpp"
#include "cuda_backend.hpp"
#include "executor.hpp"
#include "kernel_data.hpp"
#include "timing_model.hpp"

namespace threadmap {

namespace {

// ---- 1. device memory ---------------------------------------------------------------------

template <class T>
class DeviceBuffer {
  public:
    explicit DeviceBuffer(size_t count) : count_(count) {
        if (count > 0) CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
    }
    ~DeviceBuffer() {
        if (data_) CUDA_LOG(cudaFree(data_));
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* get() const { return data_; }
    size_t bytes() const { return count_ * sizeof(T); }

  private:
    T* data_ = nullptr;
    size_t count_;
};

// Host memory that is page-locked (cudaMallocHost) or ordinary (pageable), as asked.
class HostBuffer {
  public:
    HostBuffer(size_t bytes, bool pinned) : bytes_(bytes), pinned_(pinned) {
        if (bytes == 0) return;
        if (pinned)
            CUDA_CHECK(cudaMallocHost(&data_, bytes));
        else
            data_ = std::malloc(bytes);
        if (!data_) throw std::bad_alloc();
    }
    ~HostBuffer() {
        if (!data_) return;
        if (pinned_)
            CUDA_LOG(cudaFreeHost(data_));
        else
            std::free(data_);
    }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    void* get() const { return data_; }

  private:
    void* data_ = nullptr;
    size_t bytes_;
    bool pinned_;
};

// ---- 2. devices ---------------------------------------------------------------------------

CudaDevice describe(int index, const cudaDeviceProp& p) {
    CudaDevice d;
    d.index = index;
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.multiprocessors = p.multiProcessorCount;
    d.memory_bytes = p.totalGlobalMem;
    d.limits.name = std::string(p.name) + " (cudaGetDeviceProperties)";
    d.limits.max_threads_per_block = uint32_t(p.maxThreadsPerBlock);
    d.limits.max_block = {uint32_t(p.maxThreadsDim[0]), uint32_t(p.maxThreadsDim[1]), uint32_t(p.maxThreadsDim[2])};
    d.limits.max_grid = {uint32_t(p.maxGridSize[0]), uint32_t(p.maxGridSize[1]), uint32_t(p.maxGridSize[2])};
    d.limits.warp_size = uint32_t(p.warpSize);
    return d;
}

std::string device_line(const cudaDeviceProp& p) {
    return std::string(p.name) + " (cc " + std::to_string(p.major) + "." + std::to_string(p.minor) + ")";
}

// ---- 3. the mapped launch -----------------------------------------------------------------

}  // namespace

// A map on a device: the executor's buffers, kept while a LaunchResult refers to them.
struct DeviceMap {
    DeviceMap(uint64_t elements, int on_device)
        : first(elements), touches(elements), size(elements), device(on_device) {}
    DeviceBuffer<uint32_t> first, touches;
    uint64_t size;
    int device;
};

DeviceMapView view_of(const DeviceMap& m) { return {m.first.get(), m.touches.get(), m.size, m.device}; }

namespace {

LaunchResult mapped_launch(const Workload& w, const LaunchConfig& l, int device) {
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp props{};
    CUDA_CHECK(cudaGetDeviceProperties(&props, device));
    LaunchResult e;
    e.workload = w;
    e.launch = l;
    e.workers = 0;  // ran on a GPU
    e.data = make_kernel_data(w);
    const uint64_t n = element_count(w);
    DeviceBuffer<float> out(n), a(e.data.a.size()), b(e.data.b.size());
    auto map = std::make_shared<DeviceMap>(n, device);
    DeviceBuffer<unsigned long long> counters(3);  // threads active, elements untouched, written 2+ times
    CUDA_CHECK(cudaMemcpy(out.get(), e.data.out.data(), out.bytes(), cudaMemcpyHostToDevice));
    if (a.bytes()) CUDA_CHECK(cudaMemcpy(a.get(), e.data.a.data(), a.bytes(), cudaMemcpyHostToDevice));
    if (b.bytes()) CUDA_CHECK(cudaMemcpy(b.get(), e.data.b.data(), b.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(map->first.get(), 0xFF, map->first.bytes()));  // atomicMin starts from the largest id
    CUDA_CHECK(cudaMemset(map->touches.get(), 0, map->touches.bytes()));
    CUDA_CHECK(cudaMemset(counters.get(), 0, counters.bytes()));

    DeviceMapBuffers m;
    m.out = out.get();
    m.a = a.get();
    m.b = b.get();
    m.first_toucher = map->first.get();
    m.touches = map->touches.get();
    m.threads_active = counters.get();
    const cudaError_t launched = cudaError_t(launch_mapped_kernel(w, l, m));
    if (launched != cudaSuccess)
        throw std::runtime_error("the device rejected the launch: " + cuda_error_text(launched));
    const cudaError_t counted = cudaError_t(launch_count_touches(map->touches.get(), n, counters.get() + 1));
    if (counted != cudaSuccess) throw std::runtime_error("counting the map failed: " + cuda_error_text(counted));
    CUDA_CHECK(cudaDeviceSynchronize());

    // The kernel's output comes back (it is the learner's data); the map stays on the device.
    CUDA_CHECK(cudaMemcpy(e.data.out.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
    unsigned long long c[3] = {};
    CUDA_CHECK(cudaMemcpy(c, counters.get(), sizeof c, cudaMemcpyDeviceToHost));
    e.stats = shape_stats(l, uint32_t(props.warpSize));
    e.stats.elements = n;
    e.stats.threads_active = c[0];
    e.stats.threads_idle = e.stats.threads_launched - c[0];
    e.stats.elements_untouched = c[1];
    e.stats.elements_multi = c[2];
    e.device_map = std::move(map);
    return e;
}

class CudaExecutor final : public Executor {
  public:
    CudaExecutor(int device, std::string name) : device_(device), name_(std::move(name)) {}
    std::string name() const override { return name_; }
    Outcome<LaunchResult> run(const Workload& w, const LaunchConfig& l, LaunchResult*) override {
        try {
            return {mapped_launch(w, l, device_), {}};
        } catch (const std::exception& e) {
            cudaGetLastError();  // clear it: the next launch starts clean
            return {std::nullopt, e.what()};
        }
    }
    void fetch_map(LaunchResult& r) const override {
        if (r.has_host_map() || !r.device_map) return;
        const DeviceMapView v = view_of(*r.device_map);
        ThreadMap map(r.launch, v.size);
        CUDA_CHECK(cudaSetDevice(v.device));
        CUDA_CHECK(
            cudaMemcpy(map.first_toucher.data(), v.first_toucher, v.size * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(map.touches.data(), v.touches, v.size * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        r.map = std::move(map);
    }

  private:
    int device_;
    std::string name_;
};

// ---- 4. measured timings ------------------------------------------------------------------

class Event {
  public:
    Event() { CUDA_CHECK(cudaEventCreate(&e_)); }
    ~Event() { CUDA_LOG(cudaEventDestroy(e_)); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }

  private:
    cudaEvent_t e_{};
};

// Seconds between two recorded events, after waiting for the second.
double elapsed(const Event& start, const Event& stop) {
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return double(ms) / 1000;
}

GpuBenchResult measure(const Workload& w, const LaunchConfig& l, const GpuBenchOptions& o, int device) {
    GpuBenchResult r;
    // First launch in the process: context creation, module load and the launch itself,
    // timed on the host clock (events need the context that is being created).
    const auto t0 = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaFree(nullptr));  // creates the context
    cudaDeviceProp props{};
    CUDA_CHECK(cudaGetDeviceProperties(&props, device));
    r.device = device_line(props);
    cudaDriverGetVersion(&r.driver_version);
    cudaRuntimeGetVersion(&r.runtime_version);

    const KernelData data = make_kernel_data(w);
    const size_t out_bytes = data.out.size() * sizeof(float);
    const size_t a_bytes = data.a.size() * sizeof(float), b_bytes = data.b.size() * sizeof(float);
    const bool matrix = is_matrix(w.kernel);
    // What a learner copies: increment's array goes both ways; matmul copies A and B in and C out.
    const WorkloadCost cost = workload_cost(w);
    HostBuffer host_out(out_bytes, o.pinned), host_a(a_bytes, o.pinned), host_b(b_bytes, o.pinned);
    std::memcpy(host_out.get(), data.out.data(), out_bytes);
    if (a_bytes) std::memcpy(host_a.get(), data.a.data(), a_bytes);
    if (b_bytes) std::memcpy(host_b.get(), data.b.data(), b_bytes);
    DeviceBuffer<float> out(data.out.size()), a(data.a.size()), b(data.b.size());

    const auto h2d = [&] {
        if (matrix) {
            CUDA_CHECK(cudaMemcpy(a.get(), host_a.get(), a_bytes, cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(b.get(), host_b.get(), b_bytes, cudaMemcpyHostToDevice));
        } else {
            CUDA_CHECK(cudaMemcpy(out.get(), host_out.get(), out_bytes, cudaMemcpyHostToDevice));
        }
    };
    const auto kernel = [&] {
        const cudaError_t e = cudaError_t(launch_plain_kernel(w, l, out.get(), a.get(), b.get()));
        if (e != cudaSuccess) throw std::runtime_error("the device rejected the launch: " + cuda_error_text(e));
    };
    const auto d2h = [&] { CUDA_CHECK(cudaMemcpy(host_out.get(), out.get(), out_bytes, cudaMemcpyDeviceToHost)); };

    h2d();
    kernel();
    CUDA_CHECK(cudaDeviceSynchronize());
    r.first_launch_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    StageTiming sh{"h2d", {}, cost.h2d_bytes}, sk{"kernel", {}, cost.kernel_bytes}, sd{"d2h", {}, cost.d2h_bytes};
    Event e0, e1, e2, e3;
    const int copies = o.resident ? 1 : o.repeats;  // resident: data stays on the device
    for (int i = 0; i < o.repeats; ++i) {
        const bool copy = i < copies;
        CUDA_CHECK(cudaEventRecord(e0.get()));
        if (copy) h2d();
        CUDA_CHECK(cudaEventRecord(e1.get()));
        kernel();
        CUDA_CHECK(cudaEventRecord(e2.get()));
        if (copy || i == o.repeats - 1) d2h();
        CUDA_CHECK(cudaEventRecord(e3.get()));
        if (copy) sh.seconds.push_back(elapsed(e0, e1));
        sk.seconds.push_back(elapsed(e1, e2));
        if (copy || i == o.repeats - 1) sd.seconds.push_back(elapsed(e2, e3));
    }
    r.stages = {sh, sk, sd};
    return r;
}

}  // namespace

CudaDevices list_cuda_devices() {
    CudaDevices d;
    d.compiled_in = true;
    cudaRuntimeGetVersion(&d.runtime_version);
    cudaDriverGetVersion(&d.driver_version);
    int count = 0;  // cudaGetDeviceCount leaves it unwritten when there is no driver
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        d.reason =
            "cudaGetDeviceCount failed with error " + std::to_string(int(err)) + " (" + cuda_error_text(err) + ")";
        cudaGetLastError();  // clear it: the emulator takes over
        return d;
    }
    if (count == 0) d.reason = "the CUDA driver reports no devices";
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, i) == cudaSuccess) d.devices.push_back(describe(i, p));
    }
    if (count > 0 && d.devices.empty()) d.reason = "cudaGetDeviceProperties failed for every device";
    cudaGetLastError();
    return d;
}

std::unique_ptr<Executor> make_cuda_executor(int device, const std::string& name) {
    return std::make_unique<CudaExecutor>(device, name);
}

GpuBenchResult bench_on_gpu(const Workload& w, const LaunchConfig& l, const GpuBenchOptions& o, int device) {
    try {
        return measure(w, l, o, device);
    } catch (const std::exception& e) {
        cudaGetLastError();
        GpuBenchResult r;
        r.error = e.what();
        return r;
    }
}

}  // namespace threadmap
