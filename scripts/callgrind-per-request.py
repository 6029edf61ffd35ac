#!/usr/bin/env python3
"""Where one request's instructions go: the per-function difference of two callgrind profiles.

Usage: callgrind-per-request.py SHORT.out LONG.out REQUESTS [--inclusive] [--top N]

SHORT and LONG are profiles of two lives of the same server that answered REQUESTS requests
apart (`make bench`'s instructions section keeps them in bench/callgrind/ and prints the
command). Start-up and shutdown cancel out in the difference, so each row is what one request
costs in that function (self cost, or with --inclusive its callees too), largest first.
"""
import argparse
import re
import subprocess
import sys

ROW = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$")


def costs(profile: str, inclusive: bool) -> dict[str, int]:
    """Function → instructions, from callgrind_annotate (every function, no threshold)."""
    arguments = ["callgrind_annotate", "--threshold=100", f"--inclusive={'yes' if inclusive else 'no'}", profile]
    text = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout
    table: dict[str, int] = {}
    for line in text.splitlines():
        match = ROW.match(line)
        if match and "PROGRAM TOTALS" not in match.group(2):
            name = match.group(2).strip()
            table[name] = table.get(name, 0) + int(match.group(1).replace(",", ""))
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("short")
    parser.add_argument("long")
    parser.add_argument("requests", type=int)
    parser.add_argument("--inclusive", action="store_true")
    parser.add_argument("--top", type=int, default=40)
    arguments = parser.parse_args()
    if arguments.requests <= 0:
        print("callgrind-per-request: REQUESTS must be positive", file=sys.stderr)
        return 2
    short = costs(arguments.short, arguments.inclusive)
    long = costs(arguments.long, arguments.inclusive)
    rows = sorted(
        ((long.get(name, 0) - short.get(name, 0)) / arguments.requests, name) for name in set(short) | set(long))
    rows.reverse()
    total = sum(cost for cost, _ in rows)
    print(f"{total:10.1f}  instructions a request, {'inclusive' if arguments.inclusive else 'self'} costs")
    for cost, name in rows[: arguments.top]:
        if abs(cost) < 0.5:
            break
        print(f"{cost:10.1f}  {name[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
