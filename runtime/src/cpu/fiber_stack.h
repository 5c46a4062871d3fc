// The emulator's fiber stacks and the settings that size the emulation: each
// emulated thread's stack (TILESLC_CPU_STACK_KIB) sits above a guard region
// that faults when the thread overflows it, and a SIGSEGV handler on an
// alternate signal stack turns that fault into a one-line report instead of a
// silent crash. Internal to runtime/src/cpu (grid.cpp's scheduler uses it).
#ifndef TILESLC_SRC_CPU_FIBER_STACK_H
#define TILESLC_SRC_CPU_FIBER_STACK_H

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <vector>

namespace tileslc::cpu {

/// TILESLC_CPU_STACK_KIB in bytes: 64 KiB to 1 GiB, default 256 KiB. Any other
/// value stops the process with a report naming the variable.
size_t stack_bytes();

/// TILESLC_CPU_THREADS: 1 to 1024 host threads, default 1; any other value
/// stops the process as stack_bytes does.
unsigned host_threads();

/// One host thread's pool of fiber stacks of stack_bytes() each, kept for the
/// fibers of later clusters. Each stack has a PROT_NONE guard region below
/// it. Out of address space: the process stops with a report.
class FiberStacks {
 public:
  FiberStacks();
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sc);

 private:
  size_t bytes_;
  std::vector<char*> all_;   ///< every mapping (guard first), for the destructor
  std::vector<char*> free_;  ///< mappings no fiber uses now
};

/// What ctx::fiber takes as its stack allocator: allocates from a FiberStacks
/// and tells the fiber's owner which stack it got (for set_running_stack).
struct FiberStackHandle {
  FiberStacks* pool;
  boost::context::stack_context* got;
  boost::context::stack_context allocate() { return *got = pool->allocate(); }
  void deallocate(boost::context::stack_context& sc) { pool->deallocate(sc); }
};

/// While it lives, the calling host thread reports an overflow of the fiber
/// stack it runs on (see set_running_stack): it has an alternate signal stack
/// (unless it had one already) and the process the SIGSEGV handler.
class OverflowWatch {
 public:
  OverflowWatch();
  ~OverflowWatch();
  OverflowWatch(const OverflowWatch&) = delete;
  OverflowWatch& operator=(const OverflowWatch&) = delete;

 private:
  char* alt_ = nullptr;  ///< our alternate signal stack; null when the thread kept its own
};

/// The stack (from FiberStacks) of the fiber the calling host thread resumes
/// next; null when it runs none.
void set_running_stack(const boost::context::stack_context* sc);

}  // namespace tileslc::cpu

#endif  // TILESLC_SRC_CPU_FIBER_STACK_H
