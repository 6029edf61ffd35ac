#!/usr/bin/env python3
"""Where one request's instructions go: the per-function difference of two callgrind profiles.

Usage: callgrind-per-request.py SHORT.out LONG.out REQUESTS [--inclusive] [--top N] [--groups]

SHORT and LONG are profiles of two lives of the same server that answered REQUESTS requests
apart (`make bench`'s instructions section keeps them in bench/callgrind/ and prints the
command). Start-up and shutdown cancel out in the difference, so each row is what one request
costs in that function (self cost, or with --inclusive its callees too), largest first.

With --groups, the self costs summed by what the function does (GROUPS: the first pattern a
function's name matches), so every instruction counts once and the groups add up to the total.
"""
import argparse
import re
import subprocess
import sys

ROW = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$")

# What a function does, by its name (mangled Swift names carry their module: `$s13VerticalsWire…`).
# Order matters: the first group whose pattern matches takes the function.
GROUPS = [
    ("reference counting", r"swift_(retain|release|bridgeObjectRe|isUniquelyReferenced|unknownObjectRe)|RefCount|_swift_release_dealloc"),
    ("allocation", r"malloc|free|arena\.c|tcache|swift_(allocObject|slowAlloc|slowDealloc|deallocObject|deallocClassInstance"
        r"|deallocUninitializedObject|arrayDestroy|allocBox|deallocBox)"),
    ("handler hop (tasks, executors, task-locals)", r"swift_task|swift_job|swift::|withStatusRecordLock|StatusRecord|swift_continuation"
        r"|pthread_mutex|ScT|TaskLocal|localValue|runJob"),
    ("envelope and frame", r"13VerticalsWire(8Envelope|7Message|12FrameDecoder|10ByteWriter|10ByteReader)"),
    ("body codec", r"13VerticalsWire|vt_bench9BenchEcho|FieldA|BodyReader|BodyWriter"),
    ("dispatch (connection, router, counts, tracing)", r"19VerticalsServiceKit|22VerticalsObservability|15VerticalsClient|17VerticalsContract"),
    ("event loop and system calls (libuv, libc I/O)", r"18VerticalsEventLoop|libuv|uv_|epoll|__libc_(read|write|recv|send)|\bwrite\b|\bread\b"),
    ("copies (memcpy, memmove)", r"mem(cpy|move|set)"),
    ("Swift arrays and strings (standard library)", r"^\?\?\?:\$s(Sa|SS|s\d|Sr|SR|SW|Sw)"),
]


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
    parser.add_argument("--groups", action="store_true", help="self costs summed by what the function does")
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
    if arguments.groups:
        if arguments.inclusive:
            print("callgrind-per-request: --groups sums self costs; leave out --inclusive", file=sys.stderr)
            return 2
        sums: dict[str, float] = {}
        for cost, name in rows:
            group = next((label for label, pattern in GROUPS if re.search(pattern, name)), "other")
            sums[group] = sums.get(group, 0) + cost
        print(f"{total:10.1f}  instructions a request, self costs by group")
        for group, cost in sorted(sums.items(), key=lambda item: -item[1]):
            print(f"{cost:10.1f}  {cost / total * 100:5.1f} %  {group}")
        return 0
    print(f"{total:10.1f}  instructions a request, {'inclusive' if arguments.inclusive else 'self'} costs")
    for cost, name in rows[: arguments.top]:
        if abs(cost) < 0.5:
            break
        print(f"{cost:10.1f}  {name[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
