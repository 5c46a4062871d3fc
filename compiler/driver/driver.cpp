// Placeholder driver.
#include "driver/driver.h"
#include <cstdio>
#include <cstring>
namespace tileslc::driver {
int run(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) { std::puts("tileslc " TILESLC_VERSION); return 0; }
  return 2;
}
}  // namespace tileslc::driver
