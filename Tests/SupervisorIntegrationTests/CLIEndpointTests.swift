import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor call` reaches a vertical served on TCP through `VERTICALS_ENDPOINT_<NAME>`,
/// and refuses plain TCP that was not asked for with a message naming the variable.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct CLIEndpointTests {
    @Test func call_reachesAVerticalOnTCP_throughVERTICALS_ENDPOINT() throws {
        let directory = TemporaryDirectory()
        let port = try freeLoopbackPort()
        let daemon = try DaemonProcess(
            "vt-testd", ["echo"],
            environment: [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_LISTEN": "tcp:127.0.0.1:\(port)",
                "VERTICALS_TLS": "off",
            ])
        defer { daemon.stop() }
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "never listened on \(port)")
        let environment = [
            "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:\(port)", "XDG_CACHE_HOME": directory.file("cache"),
            "HOME": directory.path,
        ]

        let answered = try runCommand(
            "svc-supervisor", ["call", "echo", "echo", #"{"text": "over tcp"}"#],
            environment: environment.merging(["VERTICALS_TLS": "off"]) { $1 }, in: directory)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("\"over tcp\""), "\(answered.standardOutput)")

        let refused = try runCommand(
            "svc-supervisor", ["call", "echo", "echo", #"{"text": "x"}"#], environment: environment, in: directory)
        #expect(refused.status == 69, "\(refused.standardOutput)")
        #expect(refused.standardError.contains("VERTICALS_ENDPOINT_ECHO"), "\(refused.standardError)")
        #expect(refused.standardError.contains("VERTICALS_TLS=off"), "\(refused.standardError)")
    }

    @Test func call_asTheOperator_overMutualTLS() throws {
        let directory = TemporaryDirectory()
        let ca = try TestCertificateAuthority(in: directory)
        let echo = try ca.issue("echo")
        let operatorCertificate = try ca.issue("operator")
        let port = try freeLoopbackPort()
        let daemon = try DaemonProcess(
            "vt-testd", ["echo"],
            environment: [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_LISTEN": "tcp:127.0.0.1:\(port)",
                "VERTICALS_TLS_CERT": echo.certificate, "VERTICALS_TLS_KEY": echo.key,
                "VERTICALS_TLS_CA": echo.authority,
                "VERTICALS_ALLOWED_PEERS": "operator",
            ])
        defer { daemon.stop() }
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "never listened on \(port)")
        let answered = try runCommand(
            "svc-supervisor", ["call", "echo", "echo", #"{"text": "as the operator"}"#],
            environment: [
                "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:\(port)", "XDG_CACHE_HOME": directory.file("cache"),
                "HOME": directory.path, "VERTICALS_TLS_CERT": operatorCertificate.certificate,
                "VERTICALS_TLS_KEY": operatorCertificate.key, "VERTICALS_TLS_CA": operatorCertificate.authority,
            ], in: directory)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("\"as the operator\""), "\(answered.standardOutput)")
    }
}
