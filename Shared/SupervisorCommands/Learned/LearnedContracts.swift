import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// Where the CLI learns a vertical's contract: from the running daemon (`daemon.describe`), kept
/// in the ``DescriptionCache`` per socket, so that the CLI calls a vertical added after it was
/// built. The cache is used optimistically (a warm call is one round trip); ``LearnedCall``
/// refreshes it when an answer shows it stale.
struct LearnedContracts {
    /// The sockets the commands talk to.
    let connection: VerticalConnectionOptions
    /// The descriptions learned before.
    let cache: DescriptionCache

    init(connection: VerticalConnectionOptions, environment: [String: String] = ProcessEnvironment.current) {
        self.connection = connection
        self.cache = DescriptionCache.forCurrentUser(environment: environment)
    }

    /// The folder of `service`'s socket: the run directory for the supervisor's control socket,
    /// the suite's socket folder for a vertical.
    func sockets(for service: String) -> SocketDirectory {
        service == Supervisor.name ? StreamCaller.runDirectory(of: connection.sockets) : connection.sockets
    }

    /// `service`'s socket: the endpoint its description is cached for.
    func endpoint(of service: String) -> String {
        sockets(for: service).socketPath(for: service)
    }

    /// What the cache holds for `service`, when it reads back and is `service`'s.
    func cached(_ service: String) -> DescribedContract? {
        guard let description = cache.load(endpoint: endpoint(of: service)), description.name == service else {
            return nil
        }
        return try? DescribedContract(description)
    }

    /// Asks `service` for its description and caches it. `label` names what the user asked for
    /// in a refusal (`clinics.nearest failed: unavailable: …`), so an unreachable vertical reads
    /// as before; the CLI's exit codes are ``VerticalCaller``'s.
    func fetch(_ service: String, label: String? = nil, timeout: Duration? = nil) async throws -> DescribedContract {
        let reply = try await VerticalCaller.callRaw(
            service: service, operation: Daemon.describe.fullName, body: Empty().encodedBody(),
            sockets: sockets(for: service), timeout: timeout ?? connection.deadline,
            label: label ?? "\(service) \(Daemon.describe.fullName)")
        let contract: DescribedContract
        do {
            contract = try DescribedContract(try Daemon.Description(decoding: reply))
        } catch {
            throw CLIError(
                .badAnswer, status: 76,
                "\(service) answered daemon.describe with a description this CLI cannot read: \(error)",
                cause: error)
        }
        // A description speaks for its own vertical only: one under another name is neither used nor kept.
        guard contract.name == service else {
            throw CLIError(
                .badAnswer, status: 76,
                "\(service) answered daemon.describe with the description of \(PeerText(contract.name, maxBytes: 64)): "
                    + "a vertical describes itself only")
        }
        cache.store(contract.description, endpoint: endpoint(of: service))
        return contract
    }

    /// The cached description of `service`, else the one it gives now.
    func cachedOrFetched(_ service: String, label: String? = nil) async throws -> (DescribedContract, fresh: Bool) {
        if let cached = cached(service) { return (cached, false) }
        return (try await fetch(service, label: label), true)
    }
}

extension LearnedContracts {
    /// A vertical's contract as found by ``contracts(of:fresh:)``.
    struct Found {
        /// The contract.
        let contract: DescribedContract
        /// Whether it was asked of the daemon just now (else it came from the cache).
        let fresh: Bool
    }

    /// The contracts of the verticals `names` that answer (or, unless `fresh`, whose description
    /// is cached), in that order; one that neither answers nor is cached is left out.
    func contracts(of names: [String], fresh: Bool) async -> [Found] {
        var found: [Found] = []
        for name in names {
            if !fresh, let cached = cached(name) {
                found.append(Found(contract: cached, fresh: false))
            } else if let contract = try? await fetch(name) {
                found.append(Found(contract: contract, fresh: true))
            }
        }
        return found
    }
}
