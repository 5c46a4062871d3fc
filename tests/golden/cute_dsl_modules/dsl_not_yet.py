# A CuTe DSL-style module that imports names tileslc's stdlib does not have yet: the import
# succeeds, the use is E0308.
import cutlass
import cutlass.cute as cute
import cutlass.utils.hopper_helpers as sm90_utils
from cutlass.cute.nvgpu import tcgen05


@cute.kernel
def k(gX: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    gX[tidx] = 1.0


def run(mX: cute.Tensor):
    op = tcgen05.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (128, 256, 16))
    k(mX).launch(grid=(1, 1, 1), block=(32, 1, 1))
