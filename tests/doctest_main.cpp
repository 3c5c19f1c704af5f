// The doctest runner shared by every test executable. ctest runs one test case per process
// through a name filter; a filter that matches nothing must fail, not pass with 0 tests
// (names with ':' ',' or ';' are cut or split by the filter syntax).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

namespace {

int g_cases_started = 0;

struct CountingListener : doctest::IReporter {
    explicit CountingListener(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override { ++g_cases_started; }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

REGISTER_LISTENER("counting", 1, CountingListener);

int main(int argc, char** argv) {
#ifdef THREADMAP_KERNEL_HOST_BINARY
    // Code of the app that compiles a learner's kernel, tested in this process, starts the
    // kernel host of this build (threadmap finds it beside itself; a test is elsewhere).
    setenv("THREADMAP_KERNEL_HOST", THREADMAP_KERNEL_HOST_BINARY, 0);
#endif
    doctest::Context context(argc, argv);
    const int result = context.run();
    if (context.shouldExit()) return result;  // --help, --list-test-cases, …
    if (g_cases_started == 0) {
        std::fprintf(stderr, "no test case matched the filter: treat as a failure\n");
        return 1;
    }
    return result;
}
