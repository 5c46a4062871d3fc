"""cuda.bindings.driver as tileslc sees it: host-only; CUstream annotates a stream parameter."""
from typing import Any


class CUstream:
    """The host function's cudaStream_t: what launch(stream=) takes."""


def __getattr__(name: str) -> Any: ...
