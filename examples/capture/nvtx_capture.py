"""NVTX ranges in the structure `gpuprof nsys analyze` expects.

`gpuprof nsys profile` starts Nsight Systems with an NVTX capture range: the
report covers what runs while the range NAME (default "profile-target") is
open, and the analysis takes each direct child named exactly "iteration N"
as one measured iteration:

    profile-target          one range around every measured pass
      iteration 0           one range per pass, on the same thread
        forward             your own ranges, scoped as "forward",
          attention         "forward.attention" in the analysis
      iteration 1
      ...

Usage, around a training or inference loop (warmup passes before the
capture, outside any range):

    from nvtx_capture import NvtxCapture

    cap = NvtxCapture("profile-target")
    for batch in warmup_batches:
        step(batch)
    with cap:
        for batch in cap.iterate(batches):       # "iteration 0", "iteration 1", ...
            with cap.range("forward"):
                loss = model(batch)
            with cap.range("backward"):
                loss.backward()

or with explicit indexes: ``with cap.iteration(i): ...``. Then

    gpuprof nsys profile --run-dir runs/$(date -u +%Y%m%dT%H%M%SZ) \\
        --iterations 5 --warmup 1 -- python train.py

The ranges go through torch.cuda.nvtx when PyTorch with CUDA is there, else
through the `nvtx` package (pip install nvtx), else nowhere (a CPU-only run
has no NVTX, as the harness does). Any object with push(name) and pop()
can be passed as `nvtx=` (the tests do). The GPU is synchronized when the
capture opens and closes (and, with sync_each_iteration=True, after every
iteration) so that kernels launched inside a range also finish inside the
capture; `sync=` replaces torch.cuda.synchronize.

Pure Python, standard library only (PyTorch and nvtx are optional).
"""
import contextlib

__all__ = ["NvtxCapture", "DEFAULT_RANGE"]

DEFAULT_RANGE = "profile-target"


class _TorchNvtx:
    def __init__(self, nvtx):
        self._nvtx = nvtx

    def push(self, name):
        self._nvtx.range_push(name)

    def pop(self):
        self._nvtx.range_pop()


class _PackageNvtx:
    def __init__(self, nvtx):
        self._nvtx = nvtx

    def push(self, name):
        self._nvtx.push_range(name)

    def pop(self):
        self._nvtx.pop_range()


class _NoNvtx:
    def push(self, name):
        pass

    def pop(self):
        pass


def _default_backend():
    """(nvtx backend, synchronize function or None) for this machine."""
    try:
        import torch  # noqa: PLC0415  (optional)

        if torch.cuda.is_available():
            return _TorchNvtx(torch.cuda.nvtx), torch.cuda.synchronize
    except ImportError:
        pass
    try:
        import nvtx  # noqa: PLC0415  (optional)

        return _PackageNvtx(nvtx), None
    except ImportError:
        return _NoNvtx(), None


class NvtxCapture:
    """The capture range NAME with "iteration N" children.

    Use as a context manager (the capture range) and call iterate() or
    iteration() inside it. Ranges are push/pop ranges: open and close them
    on one thread.
    """

    def __init__(self, name=DEFAULT_RANGE, nvtx=None, sync=None, sync_each_iteration=False):
        if not isinstance(name, str) or not name or "@" in name:
            raise ValueError("the capture range needs a name without '@' (nsys reads NAME@DOMAIN)")
        self.name = name
        if nvtx is None:
            nvtx, default_sync = _default_backend()
            sync = sync if sync is not None else default_sync
        self._nvtx = nvtx
        self._sync = sync
        self._sync_each = sync_each_iteration
        self._open = False
        self._in_iteration = False
        self._next_index = 0

    def _synchronize(self):
        if self._sync is not None:
            self._sync()

    def __enter__(self):
        if self._open:
            raise RuntimeError(f"the capture range '{self.name}' is already open")
        self._synchronize()
        self._nvtx.push(self.name)
        self._open = True
        return self

    def __exit__(self, *exc):
        if self._in_iteration:  # a loop left by break or an exception
            self._end_iteration()
        self._synchronize()
        self._nvtx.pop()
        self._open = False
        return False

    def _begin_iteration(self, index):
        if not self._open:
            raise RuntimeError(f"iteration {index} outside the capture range '{self.name}'")
        if self._in_iteration:
            raise RuntimeError("iterations do not nest: close the previous one first")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ValueError(f"an iteration index is an integer >= 0, not {index!r}")
        self._nvtx.push(f"iteration {index}")
        self._in_iteration = True
        self._next_index = index + 1

    def _end_iteration(self):
        if self._sync_each:
            self._synchronize()
        self._nvtx.pop()
        self._in_iteration = False

    @contextlib.contextmanager
    def iteration(self, index=None):
        """One measured iteration: the range "iteration INDEX" (default: the
        index after the last one, from 0)."""
        self._begin_iteration(self._next_index if index is None else index)
        try:
            yield
        finally:
            if self._in_iteration:
                self._end_iteration()

    def iterate(self, items):
        """Yields each item of items inside its own "iteration N" range,
        N counting from the next index (0 at first)."""
        for item in items:
            self._begin_iteration(self._next_index)
            try:
                yield item
            finally:
                if self._in_iteration:
                    self._end_iteration()

    @contextlib.contextmanager
    def range(self, name):
        """A range of your own inside an iteration (a stage: "forward");
        nested ranges are scoped by their ancestry ("forward.attention")."""
        self._nvtx.push(name)
        try:
            yield
        finally:
            self._nvtx.pop()
