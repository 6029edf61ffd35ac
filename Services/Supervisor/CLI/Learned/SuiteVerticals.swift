import Glibc
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsWire

/// The verticals of the suite a command talks to, without any contract compiled in: the ones
/// the supervisor runs (when one answers), the manifest's services that have a socket, and the
/// sockets in the socket folder (systemd's `/run/verticals`), each once, in that order.
struct SuiteVerticals {
    /// The names, in order.
    let names: [String]
    /// Where they were found, for "known: … (from …)".
    let sources: [String]

    /// The manifest of the checkout the command runs in, read when no supervisor answers.
    static let defaultManifest = "deploy/suite.toml"

    /// The verticals of the suite `connection` names, with those of `manifest` when given (else of
    /// ``defaultManifest`` when no supervisor answers).
    static func find(connection: VerticalConnectionOptions, manifest: String?) async -> SuiteVerticals {
        var names: [String] = []
        var sources: [String] = []
        func add(_ more: [String], from source: String) {
            let new = more.filter { !names.contains($0) }
            guard !new.isEmpty else { return }
            names += new
            sources.append(source)
        }
        let runDirectory = StreamCaller.runDirectory(of: connection.sockets).path
        var supervised = false
        if access("\(runDirectory)/supervisor.sock", F_OK) == 0,
            let list = try? await ControlClient.call(
                Supervisor.status, Empty(), runDirectory: runDirectory, timeout: connection.deadline)
        {
            add(list.services.map(\.name), from: "the supervisor at \(runDirectory)")
            supervised = true
        }
        // The checkout's manifest only when no supervisor says what runs: a suite started from
        // another manifest is listed as it runs, not as this folder's file would have it.
        if let manifest = manifest ?? (supervised ? nil : defaultManifest), access(manifest, R_OK) == 0 {
            let (parsed, _) = ManifestParser.load(path: manifest, binDirectory: "/", checkExecutables: false)
            add(parsed.services.filter(\.socket).map(\.name), from: manifest)
        }
        add(UnknownVertical.socketNames(in: connection.sockets.path), from: connection.sockets.path)
        return SuiteVerticals(names: names, sources: sources)
    }

    /// "known: a, b (from …)", or what was looked at when nothing was found.
    var known: String {
        guard !names.isEmpty else {
            return "known: none (no supervisor, manifest or socket names one)"
        }
        return "known: \(names.joined(separator: ", ")) (from \(sources.joined(separator: "; ")))"
    }
}

