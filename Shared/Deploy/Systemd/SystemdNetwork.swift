import Glibc
import VerticalsContract
import VerticalsManifest
import VerticalsWire

/// What of the network one vertical's units may use. A vertical that only speaks over Unix
/// sockets gets none (`PrivateNetwork=yes`, ``SystemdSandbox``). One that listens on TCP, calls
/// a peer over TCP or exports traces to an OTLP collector gets `AF_INET`/`AF_INET6` and
/// `IPAddressAllow=` with exactly the addresses of the graph it is part of:
///
/// - its own endpoint's address (callers on its own host, and its operator, connect from it);
/// - the endpoint addresses of the services it declares in `depends_on`;
/// - the endpoint addresses of the services that declare it (its callers on other hosts);
/// - the address of `OTEL_EXPORTER_OTLP_ENDPOINT` (or `_TRACES_ENDPOINT`) when its `env` sets one.
///
/// `IPAddressAllow=` and `ListenStream=` take addresses, so an endpoint or a collector named by
/// a host name is refused at export, naming it.
struct SystemdNetwork: Equatable {
    /// `IPAddressAllow=`: sorted, each once.
    let allowedAddresses: [String]

    /// The network `spec` needs, nil when it needs none.
    static func of(_ spec: ServiceSpec, in placement: SystemdPlacement) throws(ExportError) -> SystemdNetwork? {
        let manifest = placement.manifest
        var addresses = Set<String>()
        var needsNetwork = false
        if let endpoint = spec.endpoint {
            needsNetwork = true
            addresses.insert(try address(of: endpoint, service: spec.name, what: "its endpoint"))
        }
        for name in spec.dependsOn {
            guard let peer = manifest[name], let endpoint = peer.endpoint else { continue }
            needsNetwork = true
            addresses.insert(try address(of: endpoint, service: spec.name, what: "\(name)'s endpoint"))
        }
        if spec.endpoint != nil {
            for caller in ServiceAccounts.callers(of: spec.name, in: manifest) {
                if let endpoint = caller.endpoint {
                    addresses.insert(
                        try address(of: endpoint, service: spec.name, what: "its caller \(caller.name)'s endpoint"))
                } else if !placement.runsHere(caller.name) {
                    throw ExportError(
                        .unsupported, service: spec.name,
                        "its caller \(caller.name) runs on another host with no endpoint, so IPAddressAllow= "
                            + "cannot name the address it calls from: give \(caller.name) an endpoint = \"tcp:ADDRESS:PORT\""
                    )
                }
            }
        }
        for variable in collectorVariables {
            guard let url = spec.environment[variable], !url.isEmpty else { continue }
            needsNetwork = true
            addresses.insert(try collectorAddress(url, variable: variable, service: spec.name))
        }
        return needsNetwork ? SystemdNetwork(allowedAddresses: addresses.sorted()) : nil
    }

    /// What a unit that runs every one of these verticals needs (`svc-supervisor.service`, whose
    /// verticals inherit its sandbox): every address any of them needs, nil when none needs any.
    static func union(_ networks: [SystemdNetwork]) -> SystemdNetwork? {
        guard !networks.isEmpty else { return nil }
        return SystemdNetwork(allowedAddresses: Set(networks.flatMap(\.allowedAddresses)).sorted())
    }

    /// The variables that name an OTLP collector (VerticalsOTLP's `OTLPExporter`).
    static let collectorVariables = [DaemonSettings.otlpEndpoint.name, DaemonSettings.otlpTracesEndpoint.name]

    /// The address of a TCP endpoint; a host name is refused.
    static func address(of endpoint: SocketEndpoint, service: String, what: String) throws(ExportError) -> String {
        guard case .tcp(let host, _) = endpoint else {
            throw ExportError(.unsupported, service: service, "\(what) \(endpoint) is not a TCP endpoint")
        }
        guard isAddress(host) else {
            throw ExportError(
                .unsupported, service: service,
                "\(what) \(endpoint) names a host, not an address; under systemd ListenStream= and IPAddressAllow= "
                    + "take addresses: write it as tcp:ADDRESS:PORT (e.g. tcp:10.0.0.2:7001)")
        }
        return host
    }

    /// The host of an OTLP URL (`http://10.0.0.5:4318`, `http://[fd00::5]:4318/v1/traces`), which
    /// must be an address.
    static func collectorAddress(_ url: String, variable: String, service: String) throws(ExportError) -> String {
        var rest = Substring(url)
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            rest = rest[rest.index(colon, offsetBy: 3)...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host: Substring
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
        } else {
            host = rest
            if let colon = rest.lastIndex(of: ":") { host = rest[..<colon] }
        }
        guard isAddress(String(host)) else {
            throw ExportError(
                .unsupported, service: service,
                "env \(variable) = \(url.debugDescription) names the collector by host name; under systemd IPAddressAllow= "
                    + "takes addresses: write the collector's address (e.g. http://10.0.0.5:4318)")
        }
        return String(host)
    }

    /// An IPv4 or IPv6 literal.
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
