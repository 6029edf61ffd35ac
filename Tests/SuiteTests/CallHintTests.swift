import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor call` to a vertical the supervisor keeps down: an operator's stop removes
/// its socket, so the call is refused at once, and the error says why and what to run.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct CallHintTests {
    @Test func call_toAStoppedVertical_failsAtOnce_namingItsStateAndTheCommandThatStartsIt() throws {
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        let file = fopen(manifest, "w")
        fputs("[services.clinics]\nexecutable = \"svc-clinics\"\n", file)
        fclose(file)
        let run = directory.file("run")
        let supervisor = try DaemonProcess("svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run])
        defer {
            _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.waitForExit()
        }
        // The default deadline (10 s): a refusal well inside it was not a wait in a backlog.
        let call = ["call", "--socket-dir", "\(run)/sockets", "clinics", "get", #"{"id": "c_0001"}"#]
        #expect(
            eventually(timeout: .seconds(30)) {
                (try? runCommand("svc-supervisor", call, in: directory))?.status == 0
            })

        let stop = try runCommand("svc-supervisor", ["stop", "clinics", "--run-dir", run], in: directory)
        #expect(stop.status == 0, "\(stop.standardError)")
        try expectRefusedAtOnce(naming: "clinics") { try runCommand("svc-supervisor", call, in: directory) }

        // `start` binds the socket again: the same call is answered.
        let start = try runCommand("svc-supervisor", ["start", "clinics", "--run-dir", run], in: directory)
        #expect(start.status == 0, "\(start.standardError)")
        #expect(
            eventually(timeout: .seconds(30)) {
                (try? runCommand("svc-supervisor", call, in: directory))?.status == 0
            })

        // Without a supervisor beside the sockets, nothing is added.
        let alone = try runCommand(
            "svc-supervisor",
            ["call", "--socket-dir", directory.file("nowhere"), "clinics", "get", #"{"id": "c_0001"}"#],
            in: directory)
        #expect(alone.status == 69)
        #expect(!alone.standardError.contains("hint:"), "\(alone.standardError)")
    }
}
