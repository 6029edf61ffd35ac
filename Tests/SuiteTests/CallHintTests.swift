import Glibc
import ProcessTesting
import Testing

/// `svc-supervisor call` to a vertical the supervisor keeps down: the call waits in the socket
/// the supervisor holds until its deadline, and the error then says why and what to run.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CallHintTests {
    @Test func call_toAStoppedVertical_namesItsStateAndTheCommandThatStartsIt() throws {
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
        let call = ["call", "--socket-dir", "\(run)/sockets", "--timeout", "1", "clinics", "get", #"{"id": "c_0001"}"#]
        #expect(eventually(timeout: .seconds(30)) {
            (try? runCommand("svc-supervisor", call, in: directory))?.status == 0
        })

        let stop = try runCommand("svc-supervisor", ["stop", "clinics", "--run-dir", run], in: directory)
        #expect(stop.status == 0, "\(stop.standardError)")
        let refused = try runCommand("svc-supervisor", call, in: directory)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("deadlineExceeded"), "\(refused.standardError)")
        #expect(
            refused.standardError.contains("hint: clinics is stopped")
                && refused.standardError.contains("svc-supervisor start clinics"), "\(refused.standardError)")

        // Without a supervisor beside the sockets, nothing is added.
        let alone = try runCommand(
            "svc-supervisor", ["call", "--socket-dir", directory.file("nowhere"), "clinics", "get", #"{"id": "c_0001"}"#],
            in: directory)
        #expect(alone.status == 69)
        #expect(!alone.standardError.contains("hint:"), "\(alone.standardError)")
    }
}
