// The emulator's fiber stacks (see fiber_stack.h): mmap'd with a PROT_NONE
// guard region below each, pooled per host thread, and the SIGSEGV handler
// that reports a fault in the running fiber's guard (or below its stack) as a
// stack overflow, with the setting that cures it. Also the environment
// variables that size the emulation, checked once.
#include "fiber_stack.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace tileslc::cpu {

namespace {

constexpr size_t kMinStackKib = 64;
constexpr size_t kMaxStackKib = size_t{1} << 20;  // 1 GiB
constexpr size_t kDefaultStackKib = 256;
constexpr long kMaxHostThreads = 1024;
// Below each stack: larger than a page, so that a frame of a few arrays that
// skips the first page still lands in it.
constexpr size_t kGuardBytes = 64 * 1024;

// A setting the emulator cannot run with: one line, exit 1, as fail() does.
[[noreturn]] void fatal(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "tileslc emulator: error: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

// Environment variable `name` as a whole number from `lo` to `hi` (`unit`
// after it in the report); `fallback` when it is unset or empty.
long env_number(const char* name, long fallback, long lo, long hi, const char* unit) {
  const char* env = std::getenv(name);
  if (!env || !*env) return fallback;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(env, &end, 10);
  // Digits only (strtol alone skips leading blanks and takes '+').
  const bool digits = std::isdigit(static_cast<unsigned char>(env[0])) || env[0] == '-';
  if (!digits || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    fatal(std::string(name) + " is `" + env + "`, expected a whole number from " + std::to_string(lo) + " to " +
          std::to_string(hi) + unit);
  return v;
}

// The stack the calling host thread's running fiber uses; null when none runs.
thread_local const boost::context::stack_context* t_running = nullptr;

struct sigaction g_previous;  // the SIGSEGV action before ours, for faults that are not overflows
char g_overflow_message[160];
size_t g_overflow_length = 0;

// Where the interrupted code's stack pointer was; 0 where this host's layout is unknown.
uintptr_t stack_pointer(const void* uc) {
  const auto* u = static_cast<const ucontext_t*>(uc);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(u->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(u->uc_mcontext.sp);
#else
  (void)u;
  return 0;
#endif
}

// A fault inside the running fiber's guard region, or between a stack
// pointer that went below the stack and the stack's bottom, is an overflow:
// report it and exit. Any other fault is none of ours: restore the previous
// action and return, so that the fault repeats under it.
void on_segv(int sig, siginfo_t* info, void* uc) {
  const boost::context::stack_context* sc = t_running;
  if (sc) {
    const uintptr_t bottom = reinterpret_cast<uintptr_t>(sc->sp) - sc->size;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
    const uintptr_t sp = stack_pointer(uc);
    const bool in_guard = addr >= bottom - kGuardBytes && addr < bottom;
    const bool below = sp != 0 && sp < bottom && addr + 4096 >= sp && addr < bottom;
    if (in_guard || below) {
      ssize_t ignored = write(STDERR_FILENO, g_overflow_message, g_overflow_length);
      (void)ignored;
      _exit(1);
    }
  }
  sigaction(sig, &g_previous, nullptr);
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_overflow_length = static_cast<size_t>(std::snprintf(
        g_overflow_message, sizeof g_overflow_message,
        "tileslc emulator: error: emulated thread's stack overflowed (%zu KiB): set TILESLC_CPU_STACK_KIB higher\n",
        stack_bytes() / 1024));
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = &on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous);
  });
}

}  // namespace

size_t stack_bytes() {
  static const size_t bytes =
      static_cast<size_t>(env_number("TILESLC_CPU_STACK_KIB", kDefaultStackKib, kMinStackKib, kMaxStackKib, " (KiB)")) * 1024;
  return bytes;
}

unsigned host_threads() {
  static const unsigned n = static_cast<unsigned>(env_number("TILESLC_CPU_THREADS", 1, 1, kMaxHostThreads, ""));
  return n;
}

FiberStacks::FiberStacks() : bytes_(stack_bytes()) {}

FiberStacks::~FiberStacks() {
  for (char* p : all_) munmap(p, kGuardBytes + bytes_);
}

boost::context::stack_context FiberStacks::allocate() {
  char* base;
  if (!free_.empty()) {
    base = free_.back();
    free_.pop_back();
  } else {
    // Reserved, not committed: a page costs memory once the fiber touches it.
    void* p = mmap(nullptr, kGuardBytes + bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED || mprotect(p, kGuardBytes, PROT_NONE) != 0)
      fatal("cannot map another " + std::to_string(bytes_ / 1024) + " KiB emulated thread stack (" +
            std::to_string(all_.size()) + " mapped by this host thread): " + std::strerror(errno) +
            "; set TILESLC_CPU_STACK_KIB lower");
    base = static_cast<char*>(p);
    all_.push_back(base);
  }
  boost::context::stack_context sc;
  sc.size = bytes_;
  sc.sp = base + kGuardBytes + bytes_;
  return sc;
}

void FiberStacks::deallocate(boost::context::stack_context& sc) {
  free_.push_back(static_cast<char*>(sc.sp) - bytes_ - kGuardBytes);
}

OverflowWatch::OverflowWatch() {
  install_handler();
  stack_t old;
  if (sigaltstack(nullptr, &old) == 0 && !(old.ss_flags & SS_DISABLE)) return;  // the thread's own serves
  const size_t size = std::max<size_t>(SIGSTKSZ, 64 * 1024);
  alt_ = new char[size];
  stack_t ss;
  ss.ss_sp = alt_;
  ss.ss_size = size;
  ss.ss_flags = 0;
  if (sigaltstack(&ss, nullptr) != 0) {
    delete[] alt_;
    alt_ = nullptr;
  }
}

OverflowWatch::~OverflowWatch() {
  if (!alt_) return;
  stack_t ss;
  std::memset(&ss, 0, sizeof ss);
  ss.ss_flags = SS_DISABLE;
  sigaltstack(&ss, nullptr);
  delete[] alt_;
}

void set_running_stack(const boost::context::stack_context* sc) { t_running = sc; }

}  // namespace tileslc::cpu
