import Glibc
import Testing
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Where `up` leaves its pointer and where the CLI looks for one (``SuitePointer``).
@Suite struct SuitePointerTests {
    @Test func pointerFolderVariable_overridesEveryOtherPlace_andEmptyTurnsPointersOff() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(
            SuitePointer.places(environment: environment.merging(["VERTICALS_POINTER_DIR": "/tmp/vt.x"]) { $1 }, isRoot: true)
                == [SuitePointer(folder: "/tmp/vt.x")])
        #expect(SuitePointer.places(environment: ["VERTICALS_POINTER_DIR": ""], isRoot: true).isEmpty)
    }

    @Test func root_usesRunVerticals_andAUser_itsRuntimeFolderThenRoots() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SuitePointer.places(environment: environment, isRoot: true) == [SuitePointer(folder: "/run/verticals")])
        #expect(
            SuitePointer.places(environment: environment, isRoot: false)
                == [SuitePointer(folder: "/run/user/1000/verticals"), SuitePointer(folder: "/run/verticals")])
        #expect(SuitePointer.places(environment: [:], isRoot: false) == [SuitePointer(folder: "/run/verticals")])
    }

    @Test func aPointerWhoseProcessIsNotASupervisor_isStale() throws {
        let directory = TemporaryDirectory()
        let pointer = SuitePointer(folder: directory.file("pointers"))
        // This test process runs, but it is no svc-supervisor: a reused pid must not count.
        try pointer.write(runDirectory: "/tmp/vt.elsewhere", pid: getpid())
        #expect(readFile(pointer.path) == "/tmp/vt.elsewhere\n\(getpid())\n")
        #expect(pointer.liveTarget() == nil)
        #expect(pointer.isStale)
        pointer.remove(writtenBy: getpid() + 1)
        #expect(access(pointer.path, F_OK) == 0, "removed a pointer another supervisor wrote")
        pointer.remove(writtenBy: getpid())
        #expect(access(pointer.path, F_OK) != 0)
    }
}
