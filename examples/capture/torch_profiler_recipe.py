"""PyTorch profiler settings whose Kineto traces gpuprof analyses best.

    python examples/capture/torch_profiler_recipe.py --out traces/
    torchrun --nproc-per-node 2 examples/capture/torch_profiler_recipe.py --out traces/

writes one trace per rank, traces/rank<R>.<pid>.<ms>.pt.trace.json.gz, that

    gpuprof summary traces/rank0.*.pt.trace.json.gz     overview, GPU utilization
    gpuprof steps   traces/rank0.*.pt.trace.json.gz     per step (the ProfilerStep#N ranges)
    gpuprof ops / kernels / memory / idle / sync ...   operators (record_shapes), kernels,
                                                        memory (profile_memory), stacks (with_stack)
    gpuprof dist    traces/*.pt.trace.json.gz           ranks together (distributedInfo)
    gpuprof diff    old/rank0.*.json.gz traces/rank0.*.json.gz   two runs
    gpuprof serve   traces/                             the viewer

read. What each setting is for:
  - schedule(wait, warmup, active): Kineto records only the active steps, each
    a ProfilerStep#N range (prof.step() once per iteration): gpuprof's steps,
    --step N and the per-step views need them; a few steps suffice
    (wait=1, warmup=1, active=3), the warmup steps keep start-up costs out;
  - record_shapes=True: Input Dims / Input type of each operator (gpuprof ops
    --group-by op+shape groups by them; gpuprof flops needs them);
  - profile_memory=True: the allocator's [memory] events (gpuprof memory);
  - with_stack=True: Python call stacks (gpuprof ops --stack, gpuprof export
    pprof|folded|speedscope);
  - CPU and CUDA activities: the launches and kernels the GPU views link;
  - under torch.distributed (torchrun), the profiler adds distributedInfo
    (rank, world size, backend) to each trace by itself; a worker name per
    rank keeps the files apart (gpuprof dist, rank-summary).

Replace train_step() and the model with yours.
"""
import argparse
import os

import torch
from torch.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler

WAIT, WARMUP, ACTIVE = 1, 1, 3


def rank_and_world():
    """(rank, world size) from torchrun's environment; (0, 1) otherwise."""
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


def profiler_settings(out_dir, rank):
    """The keyword arguments of torch.profiler.profile this recipe uses."""
    activities = [ProfilerActivity.CPU]
    if torch.cuda.is_available():
        activities.append(ProfilerActivity.CUDA)
    return dict(
        activities=activities,
        schedule=schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1),
        on_trace_ready=tensorboard_trace_handler(out_dir, worker_name=f"rank{rank}", use_gzip=True),
        record_shapes=True,
        profile_memory=True,
        with_stack=True,
    )


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="traces")
    p.add_argument("--batch", type=int, default=64)
    a = p.parse_args(argv)
    rank, world = rank_and_world()
    distributed = world > 1
    if distributed:
        import torch.distributed as dist

        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    dev = torch.device(f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}" if torch.cuda.is_available() else "cpu")
    if dev.type == "cuda":
        torch.cuda.set_device(dev)
    torch.manual_seed(rank)
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).to(dev)
    if distributed:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[dev.index] if dev.type == "cuda" else None)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def train_step():
        x = torch.randn(a.batch, 512, device=dev)
        y = torch.randint(0, 10, (a.batch,), device=dev)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss

    os.makedirs(a.out, exist_ok=True)
    with profile(**profiler_settings(a.out, rank)) as prof:
        for _ in range(WAIT + WARMUP + ACTIVE):
            train_step()
            prof.step()
    if distributed:
        dist.destroy_process_group()
    print(f"rank {rank}: traces in {a.out}")


if __name__ == "__main__":
    main()
