import VerticalsManifest

/// `sysusers.d/verticals.conf`: the group that may connect to the suite's sockets, and one
/// static system user per vertical (sysusers.d(5)), created by `systemd-sysusers`.
///
/// Static users, not `DynamicUser=`: a vertical tells who calls it from `SO_PEERCRED`, so
/// each caller's uid must be its own and stable.
package enum SystemUsersFile {
    // Its path under the export folder: `SystemdLayout/usersFile`.

    /// The file's text.
    static func text(_ manifest: Manifest, layout: SystemdLayout) -> String {
        var lines = SystemdExport.generatedHeader.map { "# \($0)" }
        lines.append("")
        lines += self.lines(manifest, layout: layout)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The group line and one user line per service (each user gets a group of its own name):
    /// also what svc-supervisor, as root, gives `systemd-sysusers` for the users it lacks.
    package static func lines(_ manifest: Manifest, layout: SystemdLayout) -> [String] {
        ["g \(SystemdSyntax.tableField(layout.group)) -"]
            + manifest.services.map {
                "u \(SystemdSyntax.tableField(layout.userName($0))) - \(SystemdSyntax.tableField("Verticals \($0.name)")) - -"
            }
    }

    /// The longest user name `systemd-sysusers` accepts (`UT_NAMESIZE` less its NUL).
    static let maxUserName = ServiceAccounts.maxUserName
}
