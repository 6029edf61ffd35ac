import Foundation
import Glibc
import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsTesting

/// Silent TLS strangers spread over every loop of a daemon hold exactly the cap per address of its
/// descriptors, not one more: a loop that served nothing before them spends no descriptor of its
/// own on the first one it is handed.
extension TLSHostTests {
    /// What `pid`'s descriptors point at, one line each.
    static func descriptorTargets(of pid: pid_t) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) ?? "?" }
    }

    /// What `after` holds more of than `before`, sockets apart.
    static func added(_ before: [String], _ after: [String]) -> [String] {
        var left = before
        return after.filter { target in
            if let index = left.firstIndex(of: target) {
                left.remove(at: index)
                return false
            }
            return !target.hasPrefix("socket:")
        }
    }

    @Test func silentStrangersOverManyLoops_holdExactlyTheirCap() async throws {
        let cap = 8
        let daemon = try startDaemon(extra: [
            "VERTICALS_MAX_STARTUPS_PER_ADDRESS": "\(cap)",
            "VERTICALS_TLS_HANDSHAKE_TIMEOUT_SECONDS": "600",
            "VERTICALS_LOOPS": "4",
        ])
        let loop = try EventLoop(name: "strangers-loops-test")
        defer { loop.shutdown() }
        let client = client(try ca.issue("orders"), loop: loop)
        defer { client.close() }
        #expect(try await client.call(echo.echo, .init(text: "before")).text == "before")
        let settled = Self.openDescriptors(of: daemon.pid)
        let before = Self.descriptorTargets(of: daemon.pid)

        var strangers: [RawClient] = []
        for _ in 0..<(cap * 4) {
            guard let stranger = try? RawClient(host: "127.0.0.1", port: port, from: "127.0.0.2") else { break }
            strangers.append(stranger)
        }
        #expect(strangers.count == cap * 4, "opened only \(strangers.count) connections")
        #expect(
            eventually { strangers.filter { !$0.isClosedByPeer }.count <= cap },
            "the daemon kept more than \(cap) silent connections of one address")
        let held = Self.openDescriptors(of: daemon.pid)
        let after = Self.descriptorTargets(of: daemon.pid)
        #expect(
            held <= settled + cap,
            "\(held) descriptors open, \(settled) before \(strangers.count) strangers came; new: \(Self.added(before, after))"
        )
        #expect(try await client.call(echo.echo, .init(text: "while held")).text == "while held")
    }
}
