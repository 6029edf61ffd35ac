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
            SuitePointer.places(
                environment: environment.merging(["VERTICALS_POINTER_DIR": "/tmp/vt.x"]) { $1 }, isRoot: true)
                == [SuitePointer(folder: "/tmp/vt.x")])
        #expect(SuitePointer.places(environment: ["VERTICALS_POINTER_DIR": ""], isRoot: true).isEmpty)
    }

    @Test func root_usesRunVerticals_andAUser_itsRuntimeFolder_thenItsFolderInTmp_thenRoots() {
        let directory = TemporaryDirectory()
        let runtime = directory.file("runtime")
        mkdir(runtime, 0o700)
        let uid = geteuid()
        let environment = ["XDG_RUNTIME_DIR": runtime]
        #expect(SuitePointer.places(environment: environment, isRoot: true) == [SuitePointer(folder: "/run/verticals")])
        #expect(
            SuitePointer.places(environment: environment, isRoot: false, uid: uid)
                == [
                    SuitePointer(folder: "\(runtime)/verticals", owner: uid),
                    SuitePointer(folder: "/tmp/verticals-\(uid)", owner: uid),
                    SuitePointer(folder: "/run/verticals"),
                ])
        #expect(
            SuitePointer.places(environment: [:], isRoot: false, uid: 1000)
                == [SuitePointer(folder: "/tmp/verticals-1000", owner: 1000), SuitePointer(folder: "/run/verticals")])
    }

    /// `su` keeps the caller's `XDG_RUNTIME_DIR`: a runtime folder of another user's, missing, or
    /// relative is passed over for the user's own folder in /tmp.
    @Test(arguments: ["/", "/nonexistent/run/user/4242", "run/user/4242", ""])
    func aRuntimeFolderNotTheUsersOwn_isPassedOver(runtime: String) {
        #expect(
            SuitePointer.places(environment: ["XDG_RUNTIME_DIR": runtime], isRoot: false, uid: 4242)
                == [SuitePointer(folder: "/tmp/verticals-4242", owner: 4242), SuitePointer(folder: "/run/verticals")])
    }

    /// A user's pointer folder is made 0700; one that is a link, another user's, or writable by others
    /// gets no note, and a note already in it is ignored, not followed: anyone may make a folder in /tmp.
    @Test func aUsersPointerFolder_isTheirsAlone_orRefused() throws {
        let directory = TemporaryDirectory()
        let uid = geteuid()
        let pointer = SuitePointer(folder: directory.file("mine"), owner: uid)
        try pointer.write(runDirectory: "/tmp/vt.elsewhere", pid: getpid())
        var info = stat()
        #expect(lstat(pointer.folder, &info) == 0 && info.st_mode & 0o7777 == 0o700)
        #expect(pointer.isTrusted && pointer.isStale && pointer.refusal == nil)

        chmod(pointer.folder, 0o777)
        #expect(!pointer.isTrusted && !pointer.isStale, "a note others may have left counts")
        #expect(pointer.refusal == "is writable by others (mode 0777)")
        #expect(throws: SupervisorError.self) { try pointer.write(runDirectory: "/tmp/vt.elsewhere", pid: getpid()) }
        chmod(pointer.folder, 0o700)

        let someoneElses = SuitePointer(folder: pointer.folder, owner: uid + 1)
        #expect(someoneElses.refusal == "belongs to uid \(uid), not \(uid + 1)")
        #expect(throws: SupervisorError.self) {
            try someoneElses.write(runDirectory: "/tmp/vt.elsewhere", pid: getpid())
        }

        let link = SuitePointer(folder: directory.file("link"), owner: uid)
        symlink(pointer.folder, link.folder)
        #expect(link.refusal == "is a symbolic link" && !link.isStale)
        #expect { try link.write(runDirectory: "/tmp/vt.elsewhere", pid: getpid()) } throws: {
            "\($0)".contains("is a symbolic link")
        }
        #expect(readFile(pointer.path) == "/tmp/vt.elsewhere\n\(getpid())\n", "written through the link")

        let missing = SuitePointer(folder: directory.file("missing"), owner: uid)
        #expect(missing.refusal == nil && !missing.isStale && missing.liveTarget() == nil)
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
