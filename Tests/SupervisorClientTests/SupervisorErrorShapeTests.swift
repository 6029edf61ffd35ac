import Glibc
import Testing
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

/// `SupervisorError` in the framework's one error shape (`CodedError`): a code to branch on, a
/// message, details a program reads, and a cause that is kept but never compared.
struct SupervisorErrorShapeTests {
    @Test func aFailedSystemCall_namesItsPathAndErrno_inDetails() {
        let error = SupervisorError.system("cannot create /run/x", path: "/run/x", errno: EACCES)

        #expect(error.code == .system)
        #expect(error.detail("path") == "/run/x" && error.detail("errno") == "\(EACCES)")
        #expect(error.message == "cannot create /run/x: \(String(cString: strerror(EACCES)))")
        #expect(error.description == error.message)
    }

    @Test func theCause_isKept_butNotCompared() {
        expectCauseIsKeptButNotCompared(
            { SupervisorError(.system, "cannot watch the output pipe", cause: $0) },
            differsFrom: SupervisorError(.refused, "cannot watch the output pipe"))
    }

    @Test func aRunDirectoryThatIsALink_isNotOwned_namingThePath() throws {
        let directory = TemporaryDirectory()
        let link = directory.file("run")
        symlink(directory.path, link)

        let error = #expect(throws: SupervisorError.self) { try RunDirectory.checkOwn(link) }

        #expect(error?.code == .notOwned && error?.detail("path") == link, "\(String(describing: error))")
    }

    @Test func aFailedReplacement_isASystemError_namingItsFile() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("taken")
        mkdir(target, 0o755) // rename of a file over a folder fails with EISDIR

        let error = #expect(throws: SupervisorError.self) {
            try ReplacedFile.write(Array("x".utf8), to: target, mode: 0o644)
        }

        #expect(error?.code == .system && error?.detail("path") == target, "\(String(describing: error))")
    }
}
