#!/usr/bin/env python3
"""Derives the soak's other builds of the reference suite in a copy of the checkout.

  soak-versions-derive.py COPY additive   every vertical's first Input gains an optional field,
                                          and notifications and records a store migration
  soak-versions-derive.py COPY breaking   clinics.CheckSlotInput, which appointments sends, gains a
                                          required field

Each edit is checked: a contract or migration list that no longer has the shape looked for stops
the soak with the file named, rather than building the same version twice.
"""
import pathlib
import re
import sys

VERTICALS = ["identity", "clinics", "notifications", "records", "appointments"]
MIGRATED = ["Notifications", "Records"]


def contract(copy, vertical):
    name = vertical.capitalize()
    return copy / "Shared/Example/IOInterface/Verticals" / name / f"{vertical}.vcontract"


def add_field(path, line_for, message=r"\w+"):
    """Adds line_for(tag) as the last field of the file's first `input` message named `message`."""
    text = path.read_text()
    match = re.search(rf"^input ({message}) \{{\n(.*?)^\}}", text, re.S | re.M)
    if not match:
        sys.exit(f"soak-versions: no `input` message in {path}")
    tags = [int(tag) for tag in re.findall(r"^\s+(\d+) \w+:", match.group(2), re.M)]
    if not tags:
        sys.exit(f"soak-versions: {match.group(1)} in {path} has no numbered field")
    field = line_for(max(tags) + 1)
    path.write_text(text[: match.end(2)] + field + text[match.end(2) :])
    return match.group(1)


def add_migration(copy, vertical):
    path = copy / "Services" / vertical / "Sources/Data/Migrations.swift"
    text = path.read_text()
    end = "\n        ])\n    }\n}\n"
    if not text.endswith(end):
        sys.exit(f"soak-versions: {path} does not end with its migration list")
    entry = '\n            ("soak-v2", "CREATE TABLE soak_v2 (id INTEGER PRIMARY KEY);"),'
    path.write_text(text[: -len(end)] + entry + end)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("additive", "breaking"):
        sys.exit(__doc__)
    copy = pathlib.Path(sys.argv[1])
    if sys.argv[2] == "additive":
        for vertical in VERTICALS:
            message = add_field(
                contract(copy, vertical),
                lambda tag: "    /// Added by the mixed-version soak: optional, and read by no build.\n"
                f"    {tag} soakNote: string?\n",
            )
            print(f"soak-versions: {vertical}.{message} gains the optional field soakNote")
        for vertical in MIGRATED:
            add_migration(copy, vertical)
            print(f"soak-versions: {vertical.lower()} gains the store migration soak-v2")
    else:
        message = add_field(
            contract(copy, "clinics"),
            lambda tag: "    /// Added by the mixed-version soak: required, which no running caller sends.\n"
            f"    {tag} soakRequired: string\n",
            message="CheckSlotInput",
        )
        print(f"soak-versions: clinics.{message} gains the required field soakRequired")


main()
