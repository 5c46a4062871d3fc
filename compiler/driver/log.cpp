// The driver's log through spdlog (driver/log.h). spdlog rather than our own
// stream code: levels, a sink on stderr and formatting come with it, and it is
// the logging library the design names.
#include "driver/log.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace tileslc::driver::log {

namespace {
std::shared_ptr<spdlog::logger>& logger() {
  static std::shared_ptr<spdlog::logger> l;
  return l;
}
}  // namespace

void enable() {
  if (logger()) return;
  // stderr_sink_st: one thread, no colour codes (the log is for people and CI logs alike).
  auto l = std::make_shared<spdlog::logger>("tileslc", std::make_shared<spdlog::sinks::stderr_sink_st>());
  l->set_pattern("tileslc: %v");
  l->set_level(spdlog::level::info);
  logger() = l;
}

bool enabled() { return static_cast<bool>(logger()); }

void info(const std::string& message) {
  if (auto& l = logger()) {
    l->info(message);
    l->flush();
  }
}

PhaseTimer::PhaseTimer(std::string phase) : phase_(std::move(phase)), start_(std::chrono::steady_clock::now()) {}

PhaseTimer::~PhaseTimer() {
  if (!enabled()) return;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  info(phase_ + ": " + buf);
}

}  // namespace tileslc::driver::log
