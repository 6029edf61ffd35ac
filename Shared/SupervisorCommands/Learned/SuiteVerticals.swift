import Glibc
import Synchronization
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// The verticals of the suite a command talks to, without any contract compiled in: the ones
/// the supervisor runs (when one answers), the manifest's services that have a socket, those a
/// `VERTICALS_ENDPOINT_<NAME>` names, and the sockets in the socket folder (systemd's
/// `/run/verticals`), each once, in that order.
struct SuiteVerticals {
    /// The names, in order.
    let names: [String]
    /// Those the supervisor, the manifest or `VERTICALS_ENDPOINT_*` name, in order: not those
    /// found only by a socket in the folder, which anyone who can write there may have put.
    var named: [String] = []
    /// Where they were found, for "known: … (from …)".
    let sources: [String]
    /// The main process of each vertical the supervisor runs, by name, when the supervisor passed
    /// the check ``find(connection:manifest:checkoutManifest:supervisorCheck:)`` was given (its
    /// control socket held by whom that check trusts); empty otherwise. What ``TrustedCallee``
    /// accepts as a vertical's listener besides the uids it knows: the supervisor's word for which
    /// process is identity, whatever user the manifest gives it.
    // bounded: one entry per vertical the supervisor runs, read from it, not from a vertical
    var supervisedPIDs: [String: Int32] = [:]
    /// Which vertical receives each kind of secret, from the `status` of a supervisor that passed
    /// the check (its manifest's `receives`); nil when no checked supervisor answered.
    // bounded: one entry per SecretKind
    var secretRecipients: [SecretKind: String]?
    /// The recipients file of the run folder the supervisor's sockets are in
    /// (``RunDirectory/secretRecipientsFile``), when no checked supervisor answered: a member of
    /// the operator group may not ask the supervisor, and reads what it wrote there.
    var secretRecipientsFile: String?

    /// The manifest of the checkout the command runs in, read when no supervisor answers.
    static let defaultManifest = "deploy/suite.toml"

    /// The verticals of the suite `connection` names, with those of `manifest` when given (else of
    /// ``defaultManifest`` when no supervisor answers, unless `checkoutManifest` is false: reading
    /// one hands the whole command over to svc-supervisor-engine, which a command that has read
    /// its standard input already, such as `login`'s password, cannot afford). With
    /// `supervisorCheck`, the supervisor is asked only once its control socket passes it, and the
    /// processes it names are kept (``supervisedPIDs``).
    static func find(
        connection: VerticalConnectionOptions, manifest: String?, checkoutManifest: Bool = true,
        supervisorCheck: CalleeCheck? = nil
    ) async -> SuiteVerticals {
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
        var pids: [String: Int32] = [:]
        var recipients: [SecretKind: String]?
        if access("\(runDirectory)/supervisor.sock", F_OK) == 0,
            let list = try? await ControlClient.call(
                Supervisor.status, Empty(), runDirectory: runDirectory, timeout: connection.deadline,
                calleeCheck: supervisorCheck)
        {
            add(list.services.map(\.name), from: "the supervisor at \(runDirectory)")
            supervised = true
            if supervisorCheck != nil {
                recipients = [:]
                for service in list.services {
                    if let pid = service.pid.flatMap(Int32.init(exactly:)) { pids[service.name] = pid }
                    for kind in service.receives.compactMap(SecretKind.init(rawValue:)) where recipients?[kind] == nil {
                        recipients?[kind] = service.name
                    }
                }
            }
        }
        // The checkout's manifest only when no supervisor says what runs: a suite started from
        // another manifest is listed as it runs, not as this folder's file would have it.
        if let manifest = manifest ?? (supervised || !checkoutManifest ? nil : defaultManifest),
            access(manifest, R_OK) == 0
        {
            add(ManifestNames.socketServices(manifest), from: manifest)
        }
        // Verticals the environment points at (a TCP endpoint on another host has no socket here).
        let endpointNames = connection.sockets.endpoints.keys.map { $0.lowercased() }.sorted()
        add(endpointNames, from: "\(SocketDirectory.endpointVariablePrefix)*")
        let named = names
        add(UnknownVertical.socketNames(in: connection.sockets.path), from: connection.sockets.path)
        var suite = SuiteVerticals(
            names: names, named: named, sources: sources, supervisedPIDs: pids, secretRecipients: recipients)
        if recipients == nil { suite.secretRecipientsFile = RunDirectory(runDirectory).secretRecipientsFile }
        return suite
    }

    /// "known: a, b (from …)", or what was looked at when nothing was found.
    var known: String {
        guard !names.isEmpty else {
            return "known: none (no supervisor, manifest or socket names one)"
        }
        return "known: \(names.joined(separator: ", ")) (from \(sources.joined(separator: "; ")))"
    }
}

/// The services with a socket that a manifest file names, for ``SuiteVerticals`` when no
/// supervisor answers: svc-supervisor-engine reads the TOML (``reader``); the lean
/// svc-supervisor, which reads none, hands the command over to it (``EngineProgram``).
package enum ManifestNames {
    /// Reads a manifest's services with a socket, in manifest order; nil: hand over.
    package static let reader = Mutex<(@Sendable (String) -> [String])?>(nil)

    /// The services with a socket that the manifest at `path` names.
    static func socketServices(_ path: String) -> [String] {
        guard let read = reader.withLock({ $0 }) else { EngineProgram.handOver() }
        return read(path)
    }
}
