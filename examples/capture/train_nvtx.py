"""A small PyTorch training loop with the NVTX structure of nvtx_capture.py:
the program `gpuprof nsys profile` runs in examples/capture/README.md.

    gpuprof nsys profile --run-dir runs/$(date -u +%Y%m%dT%H%M%SZ) \\
        --iterations 5 --warmup 2 --device cuda:0 \\
        -- python examples/capture/train_nvtx.py --iterations 5 --warmup 2

Replace the model and the batches with yours; keep the capture and the
iteration ranges (and give gpuprof the same --iterations).
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvtx_capture import DEFAULT_RANGE, NvtxCapture  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--capture-range", default=DEFAULT_RANGE)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--batch", type=int, default=64)
    a = p.parse_args(argv)
    torch.manual_seed(0)
    dev = torch.device(a.device)
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    data = [(torch.randn(a.batch, 512, device=dev), torch.randint(0, 10, (a.batch,), device=dev))
            for _ in range(a.warmup + a.iterations)]
    cap = NvtxCapture(a.capture_range)

    def step(x, y):
        with cap.range("forward"):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        with cap.range("backward"):
            opt.zero_grad(set_to_none=True)
            loss.backward()
        with cap.range("optimizer"):
            opt.step()
        return loss

    for x, y in data[: a.warmup]:  # warmup: before the capture, no ranges
        step(x, y)
    with cap:
        for x, y in cap.iterate(data[a.warmup:]):
            loss = step(x, y)
    print(f"loss after {a.iterations} iterations: {loss.item():.4f}")


if __name__ == "__main__":
    main()
