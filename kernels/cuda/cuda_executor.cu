// The CUDA backend; see cuda_backend.hpp. Host-side orchestration only: the kernels and
// their launchers are in cuda_kernels.cu.
//
// Sections: 1. device memory  2. devices  3. the mapped launch  4. measured timings
#include <cuda.h>  // the driver's types, for the one driver query made through the runtime

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_kernels.hpp"
#include "kernels/cuda/cuda_stream.hpp"
#include "kernels/core/executor.hpp"
#include "kernels/core/kernel_data.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

namespace {

// ---- 1. device memory ---------------------------------------------------------------------

// Device memory in stream order (cudaMallocAsync/cudaFreeAsync): allocating or freeing it
// never synchronises the whole device, so a map built while a bench runs waits for neither.
// Each buffer keeps its stream alive until it is freed.
template <class T>
class DeviceBuffer {
  public:
    DeviceBuffer(size_t count, std::shared_ptr<const CudaStream> stream) : stream_(std::move(stream)), count_(count) {
        if (count > 0) CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&data_), bytes(), stream_->get()));
    }
    ~DeviceBuffer() {
        if (data_) CUDA_LOG(cudaFreeAsync(data_, stream_->get()));
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* get() const { return data_; }
    size_t bytes() const { return count_ * sizeof(T); }

  private:
    std::shared_ptr<const CudaStream> stream_;
    T* data_ = nullptr;
    size_t count_;
};

// Host memory that is page-locked (cudaMallocHost) or ordinary (pageable), as asked.
class HostBuffer {
  public:
    HostBuffer(size_t bytes, bool pinned) : pinned_(pinned) {
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
    bool pinned_;
};

void upload(void* device, const void* host, size_t bytes, const CudaStream& s) {
    if (bytes) CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, s.get()));
}
void download(void* host, const void* device, size_t bytes, const CudaStream& s) {
    if (bytes) CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, s.get()));
}

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
    d.sm.major = p.major;
    d.sm.minor = p.minor;
    d.sm.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.sm.shared_per_sm = p.sharedMemPerMultiprocessor;
    d.sm.shared_per_block_optin = p.sharedMemPerBlockOptin;
    d.sm.reserved_shared_per_block = p.reservedSharedMemPerBlock;
    d.sm.max_threads_per_block = p.maxThreadsPerBlock;
    d.sm.regs_per_block = p.regsPerBlock;
    d.sm.regs_per_sm = p.regsPerMultiprocessor;
    d.sm.warp_size = p.warpSize;
    d.sm.shared_per_block = p.sharedMemPerBlock;
    d.sm.source = "cudaGetDeviceProperties";
    return d;
}

std::string device_line(const cudaDeviceProp& p) {
    return std::string(p.name) + " (cc " + std::to_string(p.major) + "." + std::to_string(p.minor) + ")";
}

// Whether the device's primary context exists already, asked of the driver (through the
// runtime's entry-point query: nothing links libcuda). nullopt when the driver cannot say.
std::optional<bool> primary_context_active(int device) {
    void* get = nullptr;
    void* get_state = nullptr;
    cudaDriverEntryPointQueryResult found_get{}, found_state{};
    if (cudaGetDriverEntryPointByVersion("cuDeviceGet", &get, 12000, cudaEnableDefault, &found_get) != cudaSuccess ||
        cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &get_state, 12000, cudaEnableDefault,
                                         &found_state) != cudaSuccess ||
        found_get != cudaDriverEntryPointSuccess || found_state != cudaDriverEntryPointSuccess) {
        cudaGetLastError();
        return std::nullopt;
    }
    CUdevice dev = 0;
    unsigned flags = 0;
    int active = 0;
    if (reinterpret_cast<decltype(&cuDeviceGet)>(get)(&dev, device) != CUDA_SUCCESS ||
        reinterpret_cast<decltype(&cuDevicePrimaryCtxGetState)>(get_state)(dev, &flags, &active) != CUDA_SUCCESS)
        return std::nullopt;
    return active != 0;
}

// ---- 3. the mapped launch -----------------------------------------------------------------

}  // namespace

// A map on a device: the executor's buffers, kept while a LaunchResult refers to them.
struct DeviceMap {
    DeviceMap(uint64_t elements, const std::shared_ptr<const CudaStream>& stream)
        : first(elements, stream), touches(elements, stream), size(elements), device(stream->device()) {}
    DeviceBuffer<uint32_t> first, touches;
    uint64_t size;
    int device;
};

DeviceMapView view_of(const DeviceMap& m) { return {m.first.get(), m.touches.get(), m.size, m.device}; }

namespace {

LaunchResult mapped_launch(const Workload& workload, const LaunchConfig& launch,
                           const std::shared_ptr<const CudaStream>& stream) {
    if (const Outcome<void> too_many = check_mapped_threads(launch); !too_many.done())
        throw std::runtime_error(too_many.error);
    const CudaStream& s = *stream;
    CUDA_CHECK(cudaSetDevice(s.device()));
    cudaDeviceProp props{};
    CUDA_CHECK(cudaGetDeviceProperties(&props, s.device()));
    LaunchResult result;
    result.workload = workload;
    result.launch = launch;
    result.workers = 0;  // ran on a GPU
    result.data = make_kernel_data(workload);
    const uint64_t n = element_count(workload);
    DeviceBuffer<float> out(n, stream), a(result.data.a.size(), stream), b(result.data.b.size(), stream);
    auto map = std::make_shared<DeviceMap>(n, stream);
    DeviceBuffer<unsigned long long> counters(3, stream);  // threads active, elements untouched, written by 2+ threads
    upload(out.get(), result.data.out.data(), out.bytes(), s);
    upload(a.get(), result.data.a.data(), a.bytes(), s);
    upload(b.get(), result.data.b.data(), b.bytes(), s);
    // atomicMin starts from the largest id; the counts from 0.
    CUDA_CHECK(cudaMemsetAsync(map->first.get(), 0xFF, map->first.bytes(), s.get()));
    CUDA_CHECK(cudaMemsetAsync(map->touches.get(), 0, map->touches.bytes(), s.get()));
    CUDA_CHECK(cudaMemsetAsync(counters.get(), 0, counters.bytes(), s.get()));

    DeviceMapBuffers m;
    m.out = out.get();
    m.a = a.get();
    m.b = b.get();
    m.first_toucher = map->first.get();
    m.touches = map->touches.get();
    m.threads_active = counters.get();
    const cudaError_t launched = cudaError_t(launch_mapped_kernel(workload, launch, m, s.get()));
    if (launched != cudaSuccess)
        throw std::runtime_error("the device rejected the launch: " + cuda_error_text(launched));
    const cudaError_t counted = cudaError_t(launch_count_touches(map->touches.get(), n, counters.get() + 1, s.get()));
    if (counted != cudaSuccess) throw std::runtime_error("counting the map failed: " + cuda_error_text(counted));

    // The kernel's output comes back (it is the learner's data); the map stays on the device.
    unsigned long long c[3] = {};
    download(result.data.out.data(), out.get(), out.bytes(), s);
    download(c, counters.get(), sizeof c, s);
    s.synchronize();
    result.stats = shape_stats(launch, uint32_t(props.warpSize));
    result.stats.elements = n;
    result.stats.threads_active = c[0];
    result.stats.threads_idle = result.stats.threads_launched - c[0];
    result.stats.elements_untouched = c[1];
    result.stats.elements_multi = c[2];
    result.device_map = std::move(map);
    return result;
}

// After a failure: an error that poisoned the context ("sticky": an illegal address, a
// kernel killed by the display watchdog …) makes every later call fail the same way, and
// the stream's own query says so. nullopt while the device still works.
std::optional<std::string> sticky_error(const CudaStream* stream) {
    cudaGetLastError();  // clears an ordinary error; a sticky one stays
    const cudaError_t e = stream ? cudaStreamQuery(stream->get()) : cudaPeekAtLastError();
    if (e == cudaSuccess || e == cudaErrorNotReady) return std::nullopt;
    return cuda_error_text(e);
}

class CudaExecutor final : public Executor {
  public:
    CudaExecutor(int device, std::string name) : device_(device), name_(std::move(name)) {}
    std::string name() const override { return name_; }
    // A GPU launch is over in milliseconds: `cancel` is not looked at.
    Outcome<LaunchResult> run(const Workload& workload, const LaunchConfig& launch, LaunchResult*,
                              const std::atomic<bool>*) override {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!lost_.empty()) return failed(lost_, Failure::Device);
        try {
            if (!stream_) stream_ = std::make_shared<const CudaStream>(device_);
            return {mapped_launch(workload, launch, stream_), {}};
        } catch (const std::exception& e) {
            if (auto sticky = sticky_error(stream_.get()))
                lost_ = "the CUDA context failed for good (" + *sticky + ") after: " + e.what();
            return failed(e.what(), Failure::Device);
        }
    }
    Outcome<void> fetch_map(LaunchResult& result) const override {
        if (result.has_host_map() || !result.device_map) return done();
        std::lock_guard<std::mutex> lock(mutex_);
        try {
            const DeviceMapView v = view_of(*result.device_map);
            ThreadMap map(result.launch, v.size);
            CUDA_CHECK(cudaSetDevice(v.device));
            download(map.first_toucher.data(), v.first_toucher, v.size * sizeof(uint32_t), *stream_);
            download(map.touches.data(), v.touches, v.size * sizeof(uint32_t), *stream_);
            stream_->synchronize();
            result.map = std::move(map);
            return done();
        } catch (const std::exception& e) {  // CUDA_CHECK's throw ends here, inside the executor
            return failed(std::string("the map could not come from the GPU: ") + e.what(), Failure::Device);
        }
    }
    std::string lost() const override {
        std::lock_guard<std::mutex> lock(mutex_);
        return lost_;
    }

  private:
    int device_;
    std::string name_;
    mutable std::mutex mutex_;  // the window runs launches off the UI thread and fetches maps on it
    std::shared_ptr<const CudaStream> stream_;
    std::string lost_;
};

// ---- 4. measured timings ------------------------------------------------------------------

class Event {
  public:
    Event() { CUDA_CHECK(cudaEventCreate(&e_)); }
    ~Event() { CUDA_LOG(cudaEventDestroy(e_)); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }
    void record(const CudaStream& s) const { CUDA_CHECK(cudaEventRecord(e_, s.get())); }

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

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The device made current, with its context (created unless there is one: timed on the host's
// clock, as events need the context) and its description. The driver's own start-up (cuInit)
// was paid when the devices were listed and is not in it.
void open_device(int device, GpuBenchResult& r) {
    const std::optional<bool> had_context = primary_context_active(device);
    r.first_launch_warm = had_context.value_or(false);
    const auto t0 = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaFree(nullptr));  // creates the context, if it does not exist
    r.context_seconds = seconds_since(t0);
    cudaDeviceProp props{};
    CUDA_CHECK(cudaGetDeviceProperties(&props, device));
    r.device = device_line(props);
    cudaDriverGetVersion(&r.driver_version);
    cudaRuntimeGetVersion(&r.runtime_version);
}

// Each stage's seconds over `repeats` runs, timed by events on the stream. Resident: the data
// goes over once, the kernel runs `repeats` times, the result comes back once. Otherwise every
// repeat copies both ways.
template <class H2d, class Kernel, class D2h>
std::vector<StageTiming> time_stages(const GpuBenchOptions& o, const WorkloadCost& cost, const CudaStream& s, H2d h2d,
                                     Kernel kernel, D2h d2h) {
    StageTiming sh{"h2d", {}, cost.h2d_bytes}, sk{"kernel", {}, cost.kernel_bytes}, sd{"d2h", {}, cost.d2h_bytes};
    Event e0, e1, e2, e3;
    for (int i = 0; i < o.repeats; ++i) {
        const bool copy_in = !o.resident || i == 0, copy_out = !o.resident || i == o.repeats - 1;
        e0.record(s);
        if (copy_in) h2d();
        e1.record(s);
        kernel();
        e2.record(s);
        if (copy_out) d2h();
        e3.record(s);
        if (copy_in) sh.seconds.push_back(elapsed(e0, e1));
        sk.seconds.push_back(elapsed(e1, e2));
        if (copy_out) sd.seconds.push_back(elapsed(e2, e3));
    }
    return {sh, sk, sd};
}

GpuBenchResult measure(const Workload& workload, const LaunchConfig& launch, const GpuBenchOptions& o, int device) {
    GpuBenchResult r;
    // The first launch, in two host-clock parts: the context, then the first kernel with its
    // module load.
    open_device(device, r);
    const auto stream = std::make_shared<const CudaStream>(device);  // the window's work is on other streams
    const CudaStream& s = *stream;
    const KernelData data = make_kernel_data(workload);
    const size_t out_bytes = data.out.size() * sizeof(float);
    const size_t a_bytes = data.a.size() * sizeof(float), b_bytes = data.b.size() * sizeof(float);
    const bool matrix = is_matrix(workload.kernel);
    HostBuffer host_out(out_bytes, o.pinned), host_a(a_bytes, o.pinned), host_b(b_bytes, o.pinned);
    std::memcpy(host_out.get(), data.out.data(), out_bytes);
    if (a_bytes) std::memcpy(host_a.get(), data.a.data(), a_bytes);
    if (b_bytes) std::memcpy(host_b.get(), data.b.data(), b_bytes);
    DeviceBuffer<float> out(data.out.size(), stream), a(data.a.size(), stream), b(data.b.size(), stream);

    // What a learner copies: increment's array goes both ways; matmul copies A and B in and C out.
    const auto h2d = [&] {
        if (matrix) {
            upload(a.get(), host_a.get(), a_bytes, s);
            upload(b.get(), host_b.get(), b_bytes, s);
        } else {
            upload(out.get(), host_out.get(), out_bytes, s);
        }
    };
    const auto kernel = [&] {
        const cudaError_t e = cudaError_t(launch_plain_kernel(workload, launch, out.get(), a.get(), b.get(), s.get()));
        if (e != cudaSuccess) throw std::runtime_error("the device rejected the launch: " + cuda_error_text(e));
    };
    const auto d2h = [&] { download(host_out.get(), out.get(), out_bytes, s); };

    h2d();
    s.synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    kernel();
    s.synchronize();
    r.first_kernel_seconds = seconds_since(t0);
    r.first_launch_seconds = r.context_seconds + r.first_kernel_seconds;
    r.stages = time_stages(o, workload_cost(workload), s, h2d, kernel, d2h);

    // A kernel of a few microseconds is mostly launch overhead between its two events: the
    // same number of launches back to back between one pair says what one costs in a stream.
    Event e0, e1;
    e0.record(s);
    for (int i = 0; i < o.repeats; ++i) kernel();
    e1.record(s);
    r.kernel_back_to_back_seconds = elapsed(e0, e1) / o.repeats;
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

std::optional<int> cuda_kernel_registers(const FastKernel* kernel, int device) {
    int registers = 0;
    const int rc = plain_kernel_registers(kernel, device, &registers);
    cudaGetLastError();
    return rc == 0 ? std::optional<int>(registers) : std::nullopt;
}

std::unique_ptr<Executor> make_cuda_executor(int device, const std::string& name) {
    return std::make_unique<CudaExecutor>(device, name);
}

Outcome<GpuBenchResult> bench_on_gpu(const Workload& workload, const LaunchConfig& launch, const GpuBenchOptions& o,
                                     int device) {
    try {
        return {measure(workload, launch, o, device), {}};
    } catch (const std::exception& e) {  // CUDA_CHECK's throw ends here, inside kernels/cuda
        cudaGetLastError();
        return failed(e.what(), Failure::Device);
    }
}

}  // namespace threadmap
