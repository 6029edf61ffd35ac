import Testing
import VerticalsContract
import VerticalsServiceKit

/// The one mapping from how a daemon ends to its exit status (sysexits), which supervisors read.
struct DaemonExitTests {
    struct Unexpected: Error {}

    @Test(arguments: [
        (DaemonExit.stopped, Int32(0)),
        (.answered("svc-echo 1.0\n"), 0),
        (.usage("svc-echo: unknown argument --x\n"), 64),
        (.socketUnavailable("cannot serve echo: address in use"), 69),
        (.cannotStart("svc-echo: cannot start: disk full\n"), DaemonExitStatus.startFailed),
        (
            .cannotStart("svc-echo: cannot start: another process serves it\n", restartCannotHelp: true),
            DaemonExitStatus.restartCannotHelp
        ),
        (.configurationInvalid("svc-echo --check failed:\n"), Int32(78)),
        (DaemonExit(Unexpected()), Int32(70)),
    ])
    func status_followsSysexits(end: DaemonExit, status: Int32) {
        #expect(end.status == status)
    }

    @Test func everyEnd_exitsWithADeclaredStatus() {
        let ends: [DaemonExit] = [
            .stopped, .answered("a\n"), .usage("u\n"), .socketUnavailable("s"), .cannotStart("c\n"),
            .cannotStart("c\n", restartCannotHelp: true), .configurationInvalid("i\n"), .unhealthy("h\n"),
            DaemonExit(Unexpected()),
        ]
        let declared = Set(DaemonExitStatus.all.map(\.code))
        for end in ends { #expect(declared.contains(end.status), "\(end) is not in DaemonExitStatus.all") }
        #expect(Set(ends.map(\.status)) == declared, "a declared status no end uses")
    }

    @Test func init_ofADaemonExit_keepsIt() {
        let end = DaemonExit(DaemonExit.usage("wrong\n") as any Error)
        #expect(end.status == 64)
        #expect(end.message == "wrong\n")
    }
}
