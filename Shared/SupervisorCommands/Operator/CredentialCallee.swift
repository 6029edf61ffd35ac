import Glibc
import VerticalsClient
import VerticalsSupervisorClient

/// The one listener check of every command that sends a credential (a password, a session
/// token): `login`, `admin`, `password`, `logout` (``MarkedCall``), and `call` and `open` when
/// they attach the stored token. The suite is found with the supervisor believed only when its
/// control socket passes ``TrustedCallee`` itself; each vertical's listener must then pass
/// ``TrustedCallee`` with the processes that supervisor runs and the sockets only root can have
/// placed (``RootPlacedSocket``). A `./.run` another user made holds their sockets, in their
/// folder: refused, whatever it claims to be.
struct CredentialCallee {
    /// The suite as found, its supervisor checked.
    let suite: SuiteVerticals
    /// What a connection carrying a credential must pass before its first byte.
    let check: CalleeCheck

    /// The suite `connection` names, and the check of its verticals' listeners.
    /// `checkoutManifest`: whether the checkout's manifest may be read when no supervisor answers
    /// (``SuiteVerticals/find(connection:manifest:checkoutManifest:supervisorCheck:)``).
    static func find(connection: VerticalConnectionOptions, checkoutManifest: Bool = true) async -> CredentialCallee {
        // The supervisor is believed about which process is which vertical only when it passes the check itself.
        let suite = await SuiteVerticals.find(
            connection: connection, manifest: nil, checkoutManifest: checkoutManifest,
            supervisorCheck: TrustedCallee.check())
        let sockets = connection.sockets
        let rootPlaced = Set(
            suite.names.filter { name in
                guard case .unix(let path) = sockets.endpoint(for: name) else { return false }
                return RootPlacedSocket.isRootPlaced(path)
            })
        // The suite systemd runs here names the system users a daemon binding its own socket runs as.
        let host = (try? HostSuite.resolve(environment: ProcessEnvironment.current)) ?? .reference
        return CredentialCallee(
            suite: suite,
            check: TrustedCallee.check(supervised: suite.supervisedPIDs, rootPlaced: rootPlaced, suite: host))
    }

    /// Runs `body` with every vertical call it makes checked by ``check`` of the suite `connection`
    /// names, when `credential` (the call carries one); as it is otherwise.
    static func checked<Result>(
        if credential: Bool, connection: VerticalConnectionOptions, _ body: () async throws -> Result
    ) async throws -> Result {
        guard credential else { return try await body() }
        let callee = await find(connection: connection, checkoutManifest: false)
        return try await VerticalCaller.$calleeCheck.withValue(callee.check) { try await body() }
    }
}
