// tileslc::max_active_clusters on the CPU emulation target: the emulated GPU's
// 16 multiprocessors hold 16 / cluster_size clusters of blocks that each fill
// one (the emulator runs any number of blocks; this keeps a persistent grid the
// size it would be on a GPU with 16 SMs). runtime/src/occupancy.cpp is the GPU's.
#include "tileslc/runtime.h"

namespace tileslc {

int64_t max_active_clusters(int64_t cluster_size) {
  return cluster_size < 1 || cluster_size > 16 ? 0 : device_multiprocessor_count() / cluster_size;
}

}  // namespace tileslc
