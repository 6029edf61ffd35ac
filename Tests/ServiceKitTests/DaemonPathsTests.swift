import Testing
import VerticalsServiceKit

/// One rule for where a daemon puts its socket and its state (``DaemonPaths``).
@Suite("Where a daemon keeps its socket and state")
struct DaemonPathsTests {
    @Test func whatTheServiceManagerHandsOver_comesFirst() {
        let paths = DaemonPaths(
            name: "clinics",
            environment: [
                "VERTICALS_SOCKET_DIR": "/s", "STATE_DIRECTORY": "/var/lib/x:/var/lib/y", "VERTICALS_RUN_DIR": "/r",
            ],
            isRoot: true)
        #expect(paths.sockets.socketPath(for: "clinics") == "/s/clinics.sock")
        #expect(paths.stateDirectory == "/var/lib/x")
    }

    @Test(arguments: [true, false])
    func aRunDirectory_holdsBothTheSocketAndTheState(isRoot: Bool) {
        let paths = DaemonPaths(name: "clinics", environment: ["VERTICALS_RUN_DIR": "/tmp/vt.r"], isRoot: isRoot)
        #expect(paths.sockets.path == "/tmp/vt.r/sockets")
        #expect(paths.stateDirectory == "/tmp/vt.r/state/clinics")
        #expect(paths.origin.contains("VERTICALS_RUN_DIR"))
    }

    @Test func root_withNothingSet_usesSystemdsLayout() {
        let paths = DaemonPaths(name: "clinics", environment: [:], isRoot: true)
        #expect(paths.sockets.path == "/run/verticals")
        #expect(paths.stateDirectory == "/var/lib/verticals/clinics")
    }

    @Test func anotherUser_withNothingSet_usesTheDevelopmentRunDirectory() {
        let paths = DaemonPaths(name: "clinics", environment: ["VERTICALS_SOCKET_DIR": ""], isRoot: false)
        #expect(paths.sockets.path == ".run/sockets")
        #expect(paths.stateDirectory == ".run/state/clinics")
    }

    @Test func theSocketDirectoryOfTheEnvironment_followsTheSameRule() {
        #expect(
            SocketDirectory.from(environment: [:], isRoot: false)
                == DaemonPaths(name: "x", environment: [:], isRoot: false).sockets)
        #expect(SocketDirectory.from(environment: ["VERTICALS_RUN_DIR": "/r"], isRoot: true).path == "/r/sockets")
    }

    @Test func help_printsTheResolvedPaths() {
        let text = DaemonPaths(name: "records", environment: ["VERTICALS_RUN_DIR": "/tmp/vt.q"], isRoot: false)
            .helpText(name: "records")
        #expect(text.contains("socket  /tmp/vt.q/sockets/records.sock"))
        #expect(text.contains("state   /tmp/vt.q/state/records"))
    }
}
