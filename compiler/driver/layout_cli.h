// `tileslc layout`: the layout algebra on the command line (a stable interface
// that tests and scripts use). `tileslc layout OP ARG...` prints the result of
// one operation in CuTe notation; `show` and `show-tv` draw layouts as text
// tables or SVG. Exit codes: 0 ok, 1 algebra errors (a precondition failed),
// 2 usage errors and malformed notation.
#pragma once

namespace tileslc::driver {

/// Runs `tileslc layout ...`; argv[0] is "layout". Returns the exit code.
int run_layout_cli(int argc, char** argv);

}  // namespace tileslc::driver
