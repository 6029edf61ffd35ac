#!/usr/bin/env python3
"""What scripts/reference.sh adds to swift-argument-parser's pages, from what the programs say.

    reference-pages.py defaults DUMP PAGES MARKDOWN
        Every option's default, from `svc-supervisor-engine --experimental-dump-help` (the file DUMP):
        "(default: X)" after the option's text in each manual page of the folder PAGES and in the
        one-page Markdown reference MARKDOWN, as `--help` prints it. The plugins leave defaults out.
    reference-pages.py see-also PAGES
        Each command's page (not svc-supervisor(1) itself) gets ENVIRONMENT, pointing to
        svc-supervisor(1)'s list, and SEE ALSO: svc-supervisor(1), verticals-manifest(5),
        verticals-daemon(8).
    reference-pages.py manifest DATE < manifest.md > verticals-manifest.5
        verticals-manifest(5), from the table `svc-supervisor check --list-keys` prints: the manual
        page and docs/reference/manifest.md say the same, from the one list of keys.
"""
import json
import os
import re
import sys


def commands(command, path):
    """Yields (page name, command) for `command` and every subcommand below it."""
    name = ".".join(path + [command["commandName"]])
    yield name, command
    for sub in command.get("subcommands", []):
        yield from commands(sub, path + [command["commandName"]])


def long_name(argument):
    for name in argument.get("names", []):
        if name["kind"] == "long":
            return name["name"]
    return None


def with_defaults(dump, pages, markdown):
    tool = json.load(open(dump))
    reference = open(markdown).read().split("\n")
    for page_name, command in commands(tool["command"], []):
        defaults = {}
        for argument in command.get("arguments", []):
            value = argument.get("defaultValue")
            name = long_name(argument)
            if argument.get("kind") == "option" and name and value not in (None, "") and argument.get("shouldDisplay", True):
                defaults[name] = value
        if not defaults:
            continue
        page = os.path.join(pages, page_name + ".1")
        if os.path.exists(page):
            lines = open(page).read().split("\n")
            out = []
            current = None
            for line in lines:
                if current and (line.startswith(".It ") or line.startswith(".El")):
                    out.append("(default: %s)" % current)
                    current = None
                match = re.match(r"\.It Fl (?:\S+ , )?-(\S+)", line)
                if match and match.group(1) in defaults:
                    current = defaults[match.group(1)]
                out.append(line)
            open(page, "w").write("\n".join(out))
        reference = markdown_defaults(reference, page_name, defaults)
    open(markdown, "w").write("\n".join(reference))


def markdown_defaults(lines, page_name, defaults):
    """The option headings `**--NAME=\\<…\\>:**` of the section `page_name`, each abstract followed by its default."""
    heading = re.compile(r"^#+ " + re.escape(page_name) + "$")
    inside = False
    out = []
    pending = None
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        if line.startswith("#") and not fenced:
            inside = bool(heading.match(line))
        if pending is not None and line.strip():
            if line.startswith("*") and not line.startswith("**"):
                out.append("%s (default: `%s`)" % (line, pending))
            else:
                out.append("Default: `%s`." % pending)
                out.append("")
                out.append(line)
            pending = None
            continue
        out.append(line)
        if inside:
            match = re.match(r"^\*\*(?:-\w, )?--([\w-]+)[=:]", line)
            if match and match.group(1) in defaults:
                pending = defaults[match.group(1)]
    return out


def see_also(pages):
    for name in sorted(os.listdir(pages)):
        if not name.endswith(".1") or name == "svc-supervisor.1":
            continue
        path = os.path.join(pages, name)
        text = open(path).read()
        if ".Sh ENVIRONMENT" in text:
            continue
        environment = (
            ".Sh ENVIRONMENT\n"
            "The variables of\n.Xr svc-supervisor 1 ,\n"
            "its ENVIRONMENT section: the run and socket folders, the suite pointer, the vertical endpoints\n"
            "and the operator's TLS files.\n"
        )
        also = ".Sh SEE ALSO\n.Xr svc-supervisor 1 ,\n.Xr verticals-manifest 5 ,\n.Xr verticals-daemon 8\n"
        if '.Sh "EXIT STATUS"' in text:
            text = text.replace('.Sh "EXIT STATUS"', environment + '.Sh "EXIT STATUS"', 1)
        else:
            text = text.rstrip("\n") + "\n" + environment
        open(path, "w").write(text.rstrip("\n") + "\n" + also)


def inline(text):
    """Markdown's inline code and escapes as mdoc text: `x` becomes x (its quotes, if any, say
    what is typed), a backslash is escaped, and so is a leading dot or quote."""
    text = text.replace("\\|", "|").replace("\\", "\\e")
    text = re.sub(r"`([^`]*)`", lambda match: match.group(1), text)
    return "\\&" + text if text.startswith((".", "'")) else text


def manifest(date):
    rows = []
    intro = []
    for line in sys.stdin.read().split("\n"):
        if line.startswith("| `"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows.append(cells)
        elif line and not line.startswith(("#", "<!--", "|")):
            intro.append(line)
    page = [
        '.\\" Generated by scripts/reference.sh from `svc-supervisor check --list-keys`',
        ".Dd %s" % date,
        ".Dt VERTICALS-MANIFEST 5",
        ".Os",
        ".Sh NAME",
        ".Nm verticals-manifest",
        '.Nd "the suite manifest: every service svc-supervisor runs, in TOML"',
        ".Sh SYNOPSIS",
        ".Pa deploy/suite.toml ,",
        ".Pa /usr/local/etc/verticals/suite.toml",
        ".Sh DESCRIPTION",
        "A manifest is a TOML file with a table",
        ".Ql [services.NAME]",
        "per service (NAME is its vertical, e.g. identity) and an optional",
        ".Ql [defaults]",
        "table.",
        ".Xr svc-supervisor 1",
        "runs it",
        ".Pq Ql up ,",
        "checks it",
        ".Pq Ql check",
        "and exports it to systemd units and Kubernetes objects",
        ".Pq Ql export .",
    ]
    page += [".Pp"] + [inline(line) for line in intro]
    page.append(".Sh KEYS")
    page.append(".Bl -tag -width 6n")
    for key, kind, default, doc in rows:
        page.append(".It Cm %s" % key.strip("`"))
        page.append(inline(doc))
        page.append(inline("Type: %s." % kind) if not default else inline("Type: %s; default: %s." % (kind, default)))
    page.append(".El")
    page += [
        ".Sh EXAMPLES",
        ".Bd -literal -offset indent",
        "[defaults]",
        'restart = "on-failure"',
        "",
        "[services.identity]",
        'executable = "svc-identity"',
        "",
        "[services.clinics]",
        'executable = "svc-clinics"',
        'depends_on = ["identity"]',
        ".Ed",
        ".Sh SEE ALSO",
        ".Xr svc-supervisor 1 ,",
        ".Xr svc-supervisor.check 1 ,",
        ".Xr svc-supervisor.export.systemd 1 ,",
        ".Xr verticals-daemon 8",
    ]
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["defaults"] and len(sys.argv) == 5:
        with_defaults(*sys.argv[2:])
    elif sys.argv[1:2] == ["see-also"] and len(sys.argv) == 3:
        see_also(sys.argv[2])
    elif sys.argv[1:2] == ["manifest"] and len(sys.argv) == 3:
        manifest(sys.argv[2])
    else:
        sys.exit("usage: reference-pages.py defaults DUMP PAGES MARKDOWN | see-also PAGES | manifest DATE")
