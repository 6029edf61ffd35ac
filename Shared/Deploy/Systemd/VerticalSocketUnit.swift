import VerticalsManifest

/// `verticals-<name>.socket`: systemd binds the vertical's socket and hands it to the service
/// (`LISTEN_FDS`), keeping it open across restarts, as svc-supervisor does.
enum VerticalSocketUnit {
    /// The unit's text.
    static func text(_ spec: ServiceSpec, layout: SystemdLayout) -> String {
        var file = UnitFile(header: SystemdExport.generatedHeader)
        file.append(
            UnitFile.Section(name: "Unit")
                .with("Description", "Verticals \(spec.name): its listening socket")
                .with("PartOf", layout.target))
        file.append(
            UnitFile.Section(name: "Socket")
                .with("ListenStream", ServiceName.socketPath(spec.name, in: layout.socketDirectory))
                .with(
                    "SocketMode", "0660",
                    comment: ["Only root and the group \(layout.group) (every vertical's user) may connect."])
                .with("SocketUser", "root")
                .with("SocketGroup", layout.group)
                .with("DirectoryMode", "0755")
                .with("RemoveOnStop", "yes"))
        return file.text
    }
}
