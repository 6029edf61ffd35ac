import Glibc
import Testing
import VerticalsTesting

/// The process-test helpers share one process with every event loop of the run: a helper that
/// closes a descriptor twice closes a loop's socket. `SuiteFixture.start` polls a daemon's
/// socket with `RawClient` until it listens, so a failed connect happens hundreds of times a run;
/// when it closed its socket twice, the lifetime test hung or aborted on its loop thread and
/// `NotifyListener` failed with "bind …: Bad file descriptor".
@Suite("Process-test helpers close only their own descriptors", .serialized)
struct ProcessTestingTests {
    @Test func rawClient_thatCannotConnect_closesItsSocketOnce() throws {
        let directory = TemporaryDirectory()
        let nobody = directory.file("nobody.sock")
        let stolen = descriptorsClosedUnderAnotherThread(repeating: {
            if (try? RawClient(path: nobody)) != nil { Issue.record("connected to nobody") }
        })
        #expect(stolen == 0, "\(stolen) sockets of another thread were closed by a failed RawClient")
    }

    @Test func notifyListener_thatCannotBind_closesItsSocketOnce() throws {
        let directory = TemporaryDirectory()
        let missing = directory.file("missing/notify") // no such folder: bind fails
        let stolen = descriptorsClosedUnderAnotherThread(repeating: {
            if (try? NotifyListener(path: missing)) != nil { Issue.record("bound in a missing folder") }
        })
        #expect(stolen == 0, "\(stolen) sockets of another thread were closed by a failed NotifyListener")
    }

    @Test func notifyListener_thatCannotBind_saysSo() throws {
        let directory = TemporaryDirectory()
        let missing = directory.file("missing/notify")
        let error = #expect(throws: RawSocketError.self) { _ = try NotifyListener(path: missing) }
        #expect(error?.description == "bind \(missing): No such file or directory")
    }

    @Test func rawClient_withNobodyListening_saysSo() throws {
        let directory = TemporaryDirectory()
        let nobody = directory.file("nobody.sock")
        let error = #expect(throws: RawSocketError.self) { _ = try RawClient(path: nobody) }
        #expect(error?.description == "connect \(nobody): No such file or directory")
    }
}
