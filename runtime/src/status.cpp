// Status plumbing for the C ABI: the thread-local "last error" that generated
// extern "C" twins set before returning, and tileslc_last_error() which reads it.
#include <string>

#include "tileslc/runtime.h"

namespace tileslc {
namespace {

std::string& last_error_storage() {
  thread_local std::string message;
  return message;
}

}  // namespace

void set_last_error(const Status& s) {
  if (s.ok()) {
    last_error_storage().clear();
  } else {
    last_error_storage() = s.message();
  }
}

}  // namespace tileslc

extern "C" const char* tileslc_last_error(void) { return tileslc::last_error_storage().c_str(); }
