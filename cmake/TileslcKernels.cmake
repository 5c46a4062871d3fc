# tileslc_add_kernels(): placeholder, filled by the runtime/CMake work.
