#!/usr/bin/env python3
"""Draws bench/latency.png from bench/results.json: the RPC latency distributions of our stack,
the C libuv echo and the SwiftNIO raw echo, one panel per placement, percentile on a log scale
of 1/(1-p).

    python3 Benchmarks/plot.py bench/results.json bench/latency.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source: str, target: str) -> None:
    with open(source) as f:
        results = json.load(f)
    distributions = results.get("distributions", {})
    if not distributions:
        print("plot: no latency distributions in", source, "(was the rpc section run?)")
        return
    placements = sorted({name.rsplit(" ", 2)[-2] + " " + name.rsplit(" ", 2)[-1] for name in distributions})
    figure, axes = plt.subplots(1, len(placements), figsize=(7 * len(placements), 5), squeeze=False)
    for axis, placement in zip(axes[0], placements):
        for name in sorted(n for n in distributions if n.endswith(placement)):
            points = [(p, v) for p, v in distributions[name] if p < 100]
            xs = [1 / (1 - p / 100) for p, _ in points]
            ys = [v for _, v in points]
            style = "-" if name.startswith("ours") else "--"
            axis.plot(xs, ys, style, label=name[: -len(placement)].strip(), drawstyle="steps-post")
        axis.set_xscale("log")
        axis.set_yscale("log")
        ticks = [1, 2, 10, 100, 1000, 10000]
        axis.set_xticks(ticks)
        axis.set_xticklabels(["0%", "50%", "90%", "99%", "99.9%", "99.99%"])
        axis.set_xlabel("percentile")
        axis.set_ylabel("round trip (µs)")
        axis.set_title(f"RPC latency, one request in flight, {placement}")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.suptitle(f"make bench, {results.get('startedAt', '')}, {results.get('rounds', '?')} rounds merged")
    figure.tight_layout()
    figure.savefig(target, dpi=110)
    print("plot: wrote", target)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/results.json",
         sys.argv[2] if len(sys.argv) > 2 else "bench/latency.png")
