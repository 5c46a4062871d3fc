// The driver: command-line parsing, the pipeline from a .tpy file to the
// generated .cu/.h/.json, atomic output writing, and exit codes
// (0 ok, 1 compile errors, 2 usage or I/O errors, 3 internal compiler errors).
#pragma once

namespace tileslc::driver {

/// Runs the tileslc command line; returns the process exit code.
int run(int argc, char** argv);

}  // namespace tileslc::driver
