// The driver's log (`tileslc -v`): phases with their wall time, the files
// written and the nvcc command line, through spdlog on stderr. Off (nothing
// printed, nothing timed) without -v; diagnostics never go through it.
#pragma once

#include <chrono>
#include <string>

namespace tileslc::driver::log {

/// Turns the log on: messages at info level and above go to stderr as
/// `tileslc: <message>`.
void enable();
/// Whether -v was given.
bool enabled();
/// One line of the log (a no-op when the log is off).
void info(const std::string& message);

/// Times one phase from construction to destruction and logs
/// `<phase>: <milliseconds> ms` (milliseconds with one decimal).
class PhaseTimer {
 public:
  explicit PhaseTimer(std::string phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  std::string phase_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tileslc::driver::log
