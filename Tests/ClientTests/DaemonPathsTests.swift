import Testing
import VerticalsClient
import VerticalsServiceKit

/// One rule for where a daemon puts its socket and its state (``DaemonPaths``).
@Suite("Where a daemon keeps its socket and state")
struct DaemonPathsTests {
    @Test func whatTheServiceManagerHandsOver_comesFirst() {
        let paths = DaemonPaths(
            name: "catalog",
            environment: [
                "VERTICALS_SOCKET_DIR": "/s", "STATE_DIRECTORY": "/var/lib/x:/var/lib/y", "VERTICALS_RUN_DIR": "/r",
            ],
            isRoot: true)
        #expect(paths.sockets.socketPath(for: "catalog") == "/s/catalog.sock")
        #expect(paths.stateDirectory == "/var/lib/x")
    }

    @Test(arguments: [true, false])
    func aRunDirectory_holdsBothTheSocketAndTheState(isRoot: Bool) {
        let paths = DaemonPaths(name: "catalog", environment: ["VERTICALS_RUN_DIR": "/tmp/vt.r"], isRoot: isRoot)
        #expect(paths.sockets.path == "/tmp/vt.r/sockets")
        #expect(paths.stateDirectory == "/tmp/vt.r/state/catalog")
        #expect(paths.origin.contains("VERTICALS_RUN_DIR"))
    }

    @Test func root_withNothingSet_usesSystemdsLayout() {
        let paths = DaemonPaths(name: "catalog", environment: [:], isRoot: true)
        #expect(paths.sockets.path == "/run/verticals")
        #expect(paths.stateDirectory == "/var/lib/verticals/catalog")
    }

    @Test func anotherUser_withNothingSet_usesTheDevelopmentRunDirectory() {
        let paths = DaemonPaths(name: "catalog", environment: ["VERTICALS_SOCKET_DIR": ""], isRoot: false)
        #expect(paths.sockets.path == ".run/sockets")
        #expect(paths.stateDirectory == ".run/state/catalog")
    }

    @Test func theSocketDirectoryOfTheEnvironment_followsTheSameRule() {
        #expect(
            SocketDirectory.from(environment: [:], isRoot: false)
                == DaemonPaths(name: "x", environment: [:], isRoot: false).sockets)
        #expect(SocketDirectory.from(environment: ["VERTICALS_RUN_DIR": "/r"], isRoot: true).path == "/r/sockets")
    }

    @Test func help_printsTheResolvedPaths() {
        let text = DaemonPaths(name: "archive", environment: ["VERTICALS_RUN_DIR": "/tmp/vt.q"], isRoot: false)
            .helpText(name: "archive")
        #expect(text.contains("socket  /tmp/vt.q/sockets/archive.sock"))
        #expect(text.contains("state   /tmp/vt.q/state/archive"))
    }
}
