import Glibc
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A reference vertical, store and all, sleeps once it has answered: no thread of it wakes while
/// nothing happens (the framework's own idle checks run the test daemon, in IdleWakeUpTests).
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct IdleVerticalTests {
    @Test func clinicsIdleAfterACall_wakesNever() async throws {
        let directory = TemporaryDirectory()
        let state = directory.file("state")
        #expect(mkdir(state, 0o700) == 0)
        let notify = try NotifyListener(path: directory.file("notify"))
        let sockets = SocketDirectory(directory.file("sockets"))
        let daemon = try DaemonProcess(
            "svc-clinics",
            environment: [
                "VERTICALS_SOCKET_DIR": sockets.path, "NOTIFY_SOCKET": notify.path, "STATE_DIRECTORY": state,
                "VERTICALS_LOG_LEVEL": "warning",
            ])
        defer { daemon.stop() }
        let loop = try EventLoop(name: "test-client")
        let client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(5))
        defer {
            client.close()
            loop.shutdown()
        }
        // Ready once it answers; the answer also runs daemon.health's offloaded work.
        var healthy = false
        let deadline = ContinuousClock.now + .seconds(90) // a start on a loaded machine; the suite allows 2 minutes
        while !healthy, ContinuousClock.now < deadline {
            healthy =
                (try? await client.callRaw(
                    service: "clinics", operation: Daemon.health.fullName, body: Empty().encodedBody())) != nil
            if !healthy { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(healthy, "svc-clinics never answered daemon.health")
        let wakeUps = try await DaemonProcess.quietestWindow(of: daemon.pid)
        #expect(wakeUps == 0, "svc-clinics woke \(wakeUps) times in every 3 s window after a call")
    }
}
