/// `sysusers.d/verticals.conf`: the group that may connect to the suite's sockets, and one
/// static system user per vertical (sysusers.d(5)), created by `systemd-sysusers`.
///
/// Static users, not `DynamicUser=`: a vertical tells who calls it from `SO_PEERCRED`, so
/// each caller's uid must be its own and stable.
enum SystemUsersFile {
    /// The file's path under the export folder.
    static let path = "sysusers.d/verticals.conf"

    /// The file's text.
    static func text(_ manifest: Manifest, layout: SystemdLayout) -> String {
        var lines = SystemdExport.generatedHeader.map { "# \($0)" }
        lines.append("")
        lines.append("g \(layout.group) -")
        for spec in manifest.services {
            let user = layout.unitName(spec.name)
            lines.append("u \(user) - \"Verticals \(spec.name)\" - -")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The longest user name `systemd-sysusers` accepts (`UT_NAMESIZE` less its NUL).
    static let maxUserName = 31
}
