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
        let daemon = try startDaemon(capping: cap, extra: ["VERTICALS_LOOPS": "4"])
        let (loop, client) = try await answeredCaller(loop: "strangers-loops-test")
        defer {
            client.close()
            loop.shutdown()
        }
        let settled = Self.openDescriptors(of: daemon.pid)
        let before = Self.descriptorTargets(of: daemon.pid)

        let strangers = silentStrangers(cap * 4, cap: cap)
        #expect(strangers.count == cap * 4, "opened only \(strangers.count) connections")
        let held = Self.openDescriptors(of: daemon.pid)
        let after = Self.descriptorTargets(of: daemon.pid)
        #expect(
            held <= settled + cap,
            "\(held) descriptors open, \(settled) before \(strangers.count) strangers came; new: \(Self.added(before, after))"
        )
        #expect(try await client.call(echo.echo, .init(text: "while held")).text == "while held")
    }
}
