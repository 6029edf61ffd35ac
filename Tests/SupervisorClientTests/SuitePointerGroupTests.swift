import Glibc
import Testing
import VerticalsSupervisorClient
import VerticalsTesting

/// Root's pointer note is readable by the operator group the suite's sockets belong to, which
/// `VERTICALS_OPERATOR_GROUP` may name: an operator of that group then finds the suite from any
/// folder instead of falling back to `.run` in the current one.
@Suite(.enabled(if: geteuid() == 0, "needs root: the note's group is set by root alone"))
struct SuitePointerGroupTests {
    @Test func theNote_belongsToTheGroupItIsGiven() throws {
        let directory = TemporaryDirectory()
        let group = "nogroup"
        let gid = try #require(getgrnam(group)).pointee.gr_gid
        let pointer = SuitePointer(folder: directory.file("pointer"))

        try pointer.write(runDirectory: "/tmp/vt.elsewhere", pid: getpid(), group: group)

        var info = stat()
        #expect(stat(pointer.path, &info) == 0)
        #expect(info.st_gid == gid)
        #expect(info.st_mode & 0o777 == 0o640)
    }

    @Test func anUnknownGroup_leavesTheNoteRoots() throws {
        let directory = TemporaryDirectory()
        let pointer = SuitePointer(folder: directory.file("pointer"))

        try pointer.write(
            runDirectory: "/tmp/vt.elsewhere", pid: getpid(),
            group: "vt-no-such-group-\(UInt32.random(in: 0...UInt32.max))")

        var info = stat()
        #expect(stat(pointer.path, &info) == 0)
        #expect(info.st_gid == 0)
    }
}
