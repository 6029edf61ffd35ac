import VerticalsManifest
import VerticalsWire

/// One host's share of a manifest that places its services on several hosts (`host = "a"`):
/// the services this host runs get units; the others are reached at their `endpoint`
/// (`VERTICALS_ENDPOINT_<NAME>` in the units that call them) and get none.
///
/// The whole manifest stays the graph: routes, mutual-TLS peers and the network allow-lists
/// (``SystemdNetwork``) come from every service, wherever it runs.
struct SystemdPlacement {
    /// The whole manifest.
    let manifest: Manifest
    /// The host whose units are written (`--host`); nil: every service with an executable.
    let host: String?

    /// Checks that `manifest` can be split for `host`: a manifest that places services needs a
    /// host to export for, the host must run something, and every service a unit here calls on
    /// another host must have an endpoint.
    init(_ manifest: Manifest, host: String?) throws(ExportError) {
        self.manifest = manifest
        self.host = host
        let hosts = Array(Set(manifest.services.compactMap(\.host))).sorted()
        if host == nil, let placed = manifest.services.first(where: { $0.host != nil }) {
            throw ExportError(
                .placement, service: placed.name,
                "is placed on host \"\(placed.host ?? "")\": export each host's units with --host "
                    + "(the manifest names \(hosts.joined(separator: ", ")))")
        }
        if let host, !manifest.services.contains(where: { $0.runs(on: host) }), let first = manifest.services.first {
            throw ExportError(
                .placement, service: first.name,
                "no service runs on host \"\(host)\": the manifest places services on "
                    + (hosts.isEmpty ? "no host" : hosts.joined(separator: ", ")))
        }
        for spec in manifest.services where spec.runs(on: host) {
            for name in spec.dependsOn {
                guard let peer = manifest[name], !peer.runs(on: host), peer.endpoint == nil else { continue }
                throw ExportError(
                    .placement, service: spec.name,
                    "calls \(name), which runs on another host\(peer.host.map { " (\($0))" } ?? "") and has no "
                        + "endpoint: give \(name) an endpoint = \"tcp:ADDRESS:PORT\"")
            }
        }
    }

    /// Whether service `name` gets units on this host.
    func runsHere(_ name: String) -> Bool { manifest[name]?.runs(on: host) ?? false }

    /// The services this host runs, `depends_on` unchanged (the callers of the uid allow-lists
    /// are users of this host; a peer elsewhere is reached over TCP with mutual TLS).
    var local: Manifest { Manifest(services: manifest.services.filter { $0.runs(on: host) }) }
}
