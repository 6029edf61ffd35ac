#!/usr/bin/env python3
"""docs/FRAMEWORK.md's table of the framework's modules, generated from the package graph.

    swift package dump-package | scripts/framework-table.py           write the table into docs/FRAMEWORK.md
    swift package dump-package | scripts/framework-table.py --check   exit 1 when the committed table differs

One row per `Verticals*` library or plugin product of Package.swift, in Package.swift's order:
its folder (its target's path), what it depends on (the package's own modules, then other
packages' products, as the target declares them) and what it says it is: the first paragraph of
its DocC catalog (`<folder>/Docs.docc/<Product>.md`), else the comment above the product in
Package.swift. The table lies between two marker lines of the page; the rest of it is prose.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "FRAMEWORK.md"
BEGIN = "<!-- The table below is generated from Package.swift by scripts/framework-table.py (make reference). -->"
END = "<!-- End of the generated table. -->"


def abstract(folder: pathlib.Path, product: str, manifest: str) -> str:
    """The first paragraph of the product's DocC catalog, else the comment above it in Package.swift."""
    catalog = folder / "Docs.docc" / f"{product}.md"
    if catalog.exists():
        lines = catalog.read_text().splitlines()
        paragraph = []
        for line in lines[1:]:
            if line.strip():
                paragraph.append(line.strip())
            elif paragraph:
                break
        return re.sub(r"``([^`]+)``", r"`\1`", " ".join(paragraph))
    declaration = re.search(r"((?:^[ \t]*//.*\n)+)[ \t]*\.(?:library|plugin)\(name: \"" + product + r"\"", manifest, re.M)
    if declaration:
        return " ".join(line.strip().lstrip("/").strip() for line in declaration.group(1).splitlines())
    sys.exit(f"framework-table: {product} has no {catalog.relative_to(ROOT)} and no comment in Package.swift")


def table(package: dict, manifest: str) -> str:
    targets = {target["name"]: target for target in package["targets"]}
    rows = ["| product | folder | depends on | says |", "|---|---|---|---|"]
    for product in package["products"]:
        name = product["name"]
        kind = next(iter(product["type"]))
        if not name.startswith("Verticals") or kind not in ("library", "plugin"):
            continue
        target = targets[product["targets"][0]]
        own, others = [], []
        for dependency in target["dependencies"]:
            (kind_of, fields), = dependency.items()
            (own if kind_of in ("byName", "target") else others).append(fields[0])
        depends = ", ".join(f"`{name}`" for name in own + others) or "nothing"
        says = abstract(ROOT / target["path"], name, manifest).replace("|", "\\|")
        rows.append(f"| `{name}` | `{target['path']}` | {depends} | {says} |")
    return "\n".join(rows)


def main() -> None:
    package = json.load(sys.stdin)
    manifest = (ROOT / "Package.swift").read_text()
    page = PAGE.read_text()
    if BEGIN not in page or END not in page:
        sys.exit(f"framework-table: docs/FRAMEWORK.md lacks the marker lines:\n{BEGIN}\n{END}")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    updated = f"{head}{BEGIN}\n{table(package, manifest)}\n{END}{tail}"
    if "--check" in sys.argv[1:]:
        if updated != page:
            sys.exit("framework-table: docs/FRAMEWORK.md's table differs from Package.swift: run `make reference`")
        print("framework-table: docs/FRAMEWORK.md's table matches Package.swift")
    else:
        PAGE.write_text(updated)
        print("wrote docs/FRAMEWORK.md's table")


main()
