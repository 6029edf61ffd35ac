/// `tmpfiles.d/verticals.conf`: the socket folder, made at boot before any socket unit
/// (tmpfiles(5)); folders of state come from each unit's `StateDirectory=`.
enum TemporaryFilesFile {
    // Its path under the export folder: `SystemdLayout/temporaryFilesFile`.

    /// The file's text.
    static func text(layout: SystemdLayout) -> String {
        var lines = SystemdExport.generatedHeader.map { "# \($0)" }
        lines.append("")
        lines.append("# Only root and the group \(layout.group) (operators, every vertical's user) may enter;")
        lines.append("# each socket is 0660 root:\(layout.group).")
        lines.append(
            "d \(SystemdSyntax.tableField(layout.socketDirectory)) \(SystemdLayout.socketFolderMode) root "
                + "\(SystemdSyntax.tableField(layout.group)) -")
        return lines.joined(separator: "\n") + "\n"
    }
}
