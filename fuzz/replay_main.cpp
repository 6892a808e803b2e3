// A main() for libFuzzer targets built without libFuzzer and without sanitizers: runs each
// file given on the command line once and prints how long it took. Used to tell a slow input
// of the instrumented fuzzer (ASan makes allocation-heavy code several times slower) from one
// that is slow in a production build too (docs/reliability.md, "Fuzzing the front end and
// simulator").
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argv[i]);
      return 2;
    }
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto start = std::chrono::steady_clock::now();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%8.3f s  %s\n", secs, argv[i]);
    std::fflush(stdout);
  }
  return 0;
}
