// vt-settings: the framework's ENVIRONMENT reference, printed from the settings declarations, for
// scripts/reference.sh (which adds each vertical's own, from `svc-<name> --print-settings`).
//
//   vt-settings                     Markdown: the supervisor's table, then every daemon's
//   vt-settings --mdoc              the ENVIRONMENT section of svc-supervisor(1)
//   vt-settings --daemon-page DATE  verticals-daemon(8): every daemon's options, settings and exit statuses
import Glibc
import VerticalsContract
import VerticalsSettings

switch Array(CommandLine.arguments.dropFirst()) {
case []:
    print(SupervisorSettings.declaration.markdown)
    print(DaemonSettings.declaration.markdown, terminator: "")
case ["--mdoc"]:
    print(SupervisorSettings.declaration.mdoc, terminator: "")
case let arguments where arguments.count == 2 && arguments[0] == "--daemon-page":
    print(DaemonPage.mdoc(date: arguments[1]), terminator: "")
case let other:
    print("vt-settings: unknown arguments \(other); usage: vt-settings [--mdoc | --daemon-page DATE]")
    exit(64)
}
