import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// How many requests of one operation a running daemon has served, by its own metrics
/// (`verticals_requests_total`): what a test reads to prove a secret never reached a daemon.
public enum ServedRequests {
    /// The count of `operation` (a full name) served by `service`, reached through `sockets`
    /// (its folder, or the endpoint and TLS material it names).
    public static func count(of operation: String, service: String, sockets: SocketDirectory) async throws -> Int {
        let loop = try EventLoop(name: "served-requests")
        let client = ServiceClient(loop: loop, sockets: sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        let reply = try await client.callRaw(
            service: service, operation: Daemon.metrics.fullName, body: Empty().encodedBody())
        let metrics = try Daemon.Metrics(decoding: reply)
        let prefix = "verticals_requests_total{operation=\"\(operation)\"} "
        let line = metrics.exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }
}
