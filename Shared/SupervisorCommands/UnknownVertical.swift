import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// Tells a vertical that is not in the suite (a typo) from one that does not answer, before a
/// command calls it: the first is bad usage, exit 64 (EX_USAGE) with the names the suite has;
/// the second stays the call's own 69 (EX_UNAVAILABLE).
///
/// The CLI knows no contract at build time, so the suite says what it has: the supervisor's
/// status when one serves the socket folder's run directory, else the sockets in the folder
/// (systemd's `/run/verticals`).
package enum UnknownVertical {
    /// Throws a ``CLIError`` of status 64 when the suite `sockets` belongs to has no vertical `service`.
    package static func refuse(_ service: String, sockets: SocketDirectory) async throws {
        let environment = ProcessEnvironment.current
        guard service != Supervisor.name,
            environment[SocketDirectory.endpointVariablePrefix + SocketDirectory.endpointKey(for: service)] == nil,
            access(sockets.socketPath(for: service), F_OK) != 0
        else { return }
        let known: [String]
        let suite: String
        let parent = sockets.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let runDirectory = parent.isEmpty ? "." : parent
        if access("\(runDirectory)/supervisor.sock", F_OK) == 0,
            let list = try? await ControlClient.call(
                Supervisor.status, Empty(), runDirectory: runDirectory, timeout: .seconds(2))
        {
            known = list.services.map(\.name)
            suite = "the supervisor at \(runDirectory)"
        } else {
            known = socketNames(in: sockets.path)
            suite = sockets.path
        }
        // Nothing known (no suite there at all): the call says it cannot reach it.
        guard !known.isEmpty, !known.contains(service) else { return }
        throw CLIError(
            .notFound, status: 64,
            "no vertical named \"\(service)\" in \(suite); known: \(known.joined(separator: ", "))")
    }

    /// The verticals with a socket in `folder` (`NAME.sock`), sorted.
    package static func socketNames(in folder: String) -> [String] {
        FolderEntries.names(in: folder).filter { $0.hasSuffix(".sock") }.map { String($0.dropLast(".sock".count)) }
            .sorted()
    }
}
