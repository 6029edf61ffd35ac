#!/usr/bin/env python3
"""Draws bench/latency.png from bench/results.json: the RPC latency distributions of our stack
and its peers (the C libuv echo, the SwiftNIO raw echo, gRPC Swift 2), one panel per placement,
percentile on a log scale of 1/(1-p); and beside them each peer's requests/s at 1 connection x 64
in flight, median and range over the rounds. When the run measured curves (how a figure grows
with the work), it draws them beside it, in curves.png: a panel per kind of work and unit,
log-log, each curve's growth named in its legend.

    python3 Benchmarks/plot.py bench/results.json bench/latency.png
"""
import os
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source: str, target: str) -> None:
    with open(source) as f:
        results = json.load(f)
    draw_curves(results, os.path.join(os.path.dirname(target) or ".", "curves.png"))
    distributions = results.get("distributions", {})
    if not distributions:
        print("plot: no latency distributions in", source, "(was the rpc section run?)")
        return
    placements = sorted({name.rsplit(" ", 2)[-2] + " " + name.rsplit(" ", 2)[-1] for name in distributions})
    rates = throughput(results.get("rows", []))
    panels = len(placements) + (1 if rates else 0)
    figure, axes = plt.subplots(1, panels, figsize=(7 * panels, 5), squeeze=False)
    if rates:
        draw_throughput(axes[0][-1], rates)
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
    save(figure, results, "rounds merged", target)


def throughput(rows: list) -> dict:
    """Each peer's requests/s at 1 x 64 (a summary: median, min, max), from the table's rows."""
    rates = {}
    for row in rows:
        if row.get("section") != "rpc throughput" or not row.get("name", "").startswith("1 conn"):
            continue
        if row["name"] == "1 conn × 64 in flight, 64 B":
            rates["ours"] = row["value"]
            rates["C libuv echo"] = row["baseline"]
        elif row["name"].endswith("ours against gRPC Swift 2"):
            rates["gRPC Swift 2"] = row["baseline"]
    return rates


def draw_throughput(axis, rates: dict) -> None:
    names = list(rates)
    medians = [rates[n]["median"] / 1000 for n in names]
    low = [m - rates[n]["min"] / 1000 for n, m in zip(names, medians)]
    high = [rates[n]["max"] / 1000 - m for n, m in zip(names, medians)]
    axis.bar(names, medians, yerr=[low, high], capsize=6)
    axis.set_ylabel("thousand requests/s")
    axis.set_title("RPC throughput, 1 connection × 64 in flight, 64 B")
    axis.grid(True, axis="y", alpha=0.3)


def draw_curves(results: dict, target: str) -> None:
    """One panel per kind of work and unit (ours and its baseline share one), three to a row,
    log-log: the median at each point, the rounds' range as a band, each curve's growth named in its
    legend. A panel with a figure at or below zero (an idle process's wake-ups) is linear near zero
    (symlog), where a log scale has no place for it."""
    curves = results.get("curves", [])
    if not curves:
        return
    panels = {}
    for curve in curves:
        panels.setdefault((curve["work"], curve["unit"]), []).append(curve)
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(6 * columns, 4.5 * rows), squeeze=False)
    for axis in axes.flat[len(panels):]:
        axis.set_visible(False)
    for axis, ((work, unit), members) in zip(axes.flat, panels.items()):
        for curve in members:
            xs = curve["points"]
            lows = [v["min"] for v in curve["values"]]
            highs = [v["max"] for v in curve["values"]]
            axis.plot(xs, [v["median"] for v in curve["values"]], "o-", label=f'{curve["name"]}: {curve["growth"]}')
            axis.fill_between(xs, lows, highs, alpha=0.2)
        axis.set_xscale("log")
        if any(v["min"] <= 0 for curve in members for v in curve["values"]):
            axis.set_yscale("symlog", linthresh=1)
        else:
            axis.set_yscale("log")
        axis.set_xlabel(work)
        axis.set_ylabel(unit)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    save(figure, results, "rounds", target)


def save(figure, results: dict, rounds: str, target: str) -> None:
    """Titles `figure` with the run it draws (when it started, how many `rounds`) and writes it to
    `target`."""
    figure.suptitle(f"make bench, {results.get('startedAt', '')}, {results.get('rounds', '?')} {rounds}")
    figure.tight_layout()
    figure.savefig(target, dpi=110)
    print("plot: wrote", target)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/results.json",
         sys.argv[2] if len(sys.argv) > 2 else "bench/latency.png")
