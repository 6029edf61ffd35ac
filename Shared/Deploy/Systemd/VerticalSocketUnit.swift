import VerticalsManifest

/// `verticals-<name>.socket`: systemd binds the vertical's socket and hands it to the service
/// (`LISTEN_FDS`), keeping it open across restarts, as svc-supervisor does. A service with a
/// TCP `endpoint` listens there instead of on its Unix socket, admitting only the addresses of
/// its ``SystemdNetwork``.
enum VerticalSocketUnit {
    /// The unit's text.
    static func text(_ spec: ServiceSpec, network: SystemdNetwork?, layout: SystemdLayout) -> String {
        var file = UnitFile(header: SystemdExport.generatedHeader)
        file.append(
            UnitFile.Section(name: "Unit")
                .with("Description", "Verticals \(spec.name): its listening socket")
                .with("PartOf", layout.target))
        if case .tcp(let host, let port) = spec.endpoint {
            let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            var socket = UnitFile.Section(name: "Socket")
                .with("ListenStream", address)
                .with(
                    "FreeBind", "yes",
                    comment: ["Binds before the address is configured (the network may come up after the socket)."]
                )
                .with("NoDelay", "yes")
                .with("KeepAlive", "yes")
            // The listening socket is the socket unit's, so its allow-list applies to it and to
            // the connections it accepts (systemd.resource-control(5)); the service's to its own.
            socket.set(
                "IPAddressDeny", "any",
                comment: ["Only the peers of its routes: mutual TLS decides who they are, this where they may be."])
            socket.set("IPAddressAllow", (network?.allowedAddresses ?? [host]).joined(separator: " "))
            file.append(socket)
            return file.text
        }
        file.append(
            UnitFile.Section(name: "Socket")
                .with("ListenStream", ServiceName.socketPath(spec.name, in: layout.socketDirectory))
                .with(
                    "SocketMode", "0660",
                    comment: ["Only root and the group \(layout.group) (every vertical's user) may connect."]
                )
                .with("SocketUser", "root")
                .with("SocketGroup", layout.group)
                .with("DirectoryMode", SystemdLayout.socketFolderMode)
                .with("RemoveOnStop", "yes"))
        return file.text
    }
}
