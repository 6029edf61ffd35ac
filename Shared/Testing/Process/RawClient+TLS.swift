import Testing
import Glibc

extension RawClient {
    /// A raw client whose bytes travel inside mutual TLS 1.3: `openssl s_client` presents
    /// `files` to `host:port` (from network namespace `namespace` when given, through `ip netns
    /// exec`) and carries, unchanged, what this client sends and receives over a socketpair. For
    /// hostile frames past the handshake: bad lengths, truncated frames, a client that never reads.
    ///
    /// The server's certificate is verified against `files.authority` but its name is not
    /// checked: a hostile client does not care whom it talks to. End of stream on this side
    /// (``finishSending()``) ends the TLS session, as a half-close ends a plain one.
    public static func overTLS(
        host: String, port: UInt16, files: TestCertificateAuthority.Issued, namespace: String? = nil,
        receiveTimeout: Duration = .seconds(5)
    ) throws -> RawClient {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw RawSocketError("socketpair")
        }
        let client = RawClient(descriptor: pair[0], receiveTimeout: receiveTimeout)
        defer { close(pair[1]) }
        let openssl = [
            "/usr/bin/openssl", "s_client", "-connect", "\(host):\(port)", "-tls1_3", "-cert", files.certificate,
            "-key", files.key,
            "-CAfile", files.authority, "-quiet", "-no_ign_eof", "-nocommands",
        ]
        let command = namespace.map { [NetworkLab.ipPath ?? "ip", "netns", "exec", $0] + openssl } ?? openssl
        client.carrier = try DaemonProcess(
            command[0], Array(command.dropFirst()), stderrPath: "/dev/null", standardStreams: pair[1])
        return client
    }
}
