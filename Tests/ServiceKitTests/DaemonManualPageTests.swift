import Glibc
import Testing
import VerticalsServiceKit
import VerticalsTesting

/// verticals-daemon(8) (docs/man, written by scripts/reference.sh) lists the options every daemon
/// takes: exactly those of a daemon's usage line, each one the daemon accepts.
struct DaemonManualPageTests {
    static let packageRoot = String(#filePath).split(separator: "/").dropLast(3).map { "/" + $0 }.joined()

    @Test func manualPage_listsExactlyTheOptionsADaemonTakes() throws {
        let page = try #require(
            readFile(Self.packageRoot + "/docs/man/verticals-daemon.8"), "no docs/man/verticals-daemon.8")
        let listed = Set(
            page.split(separator: "\n").filter { $0.hasPrefix(".It Fl ") }.map { "-" + $0.dropFirst(".It Fl ".count) })
        let usage = try #require(
            DaemonArguments.usage(name: "x", summary: "").split(separator: "\n").first { $0.hasPrefix("Usage: ") })
        let offered = Set(
            usage.split(whereSeparator: { " []|".contains($0) }).filter { $0.hasPrefix("--") }.map(String.init))
        #expect(!offered.isEmpty)
        #expect(listed == offered, "the page lists \(listed.sorted()), a daemon's usage \(offered.sorted())")
        for flag in listed {
            #expect((try? DaemonArguments.parse([flag]).get()) != nil, "a daemon refuses \(flag)")
        }
    }
}
