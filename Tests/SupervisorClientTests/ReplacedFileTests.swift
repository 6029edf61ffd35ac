import Glibc
import Testing
import VerticalsClient
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsTesting

/// Files replaced whole (``ReplacedFile``): the pointer, the pid record, the secrets file, the
/// stored login, the describe cache and generated folders all write this way.
struct ReplacedFileTests {
    @Test func aLinkPlantedAtTheStagingName_isReplaced_notWrittenThrough() throws {
        let directory = TemporaryDirectory()
        let victim = directory.file("victim")
        let target = directory.file("pointer")
        #expect(writeFile("untouched", to: victim))
        symlink(victim, "\(target).\(getpid()).tmp")

        try ReplacedFile.write(Array("new\n".utf8), to: target, mode: 0o640)

        #expect(WholeFile.read(target) == "new\n")
        #expect(WholeFile.read(victim) == "untouched", "written through a planted link")
        var info = stat()
        #expect(lstat(target, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(access("\(target).\(getpid()).tmp", F_OK) != 0, "the staging name is left behind")
    }

    /// The umask is the process's and left alone (tests run in parallel); the usual 022 would
    /// narrow 0666.
    @Test(arguments: [0o600, 0o640, 0o666] as [mode_t])
    func theModeIsExact_whateverTheUmask(mode: mode_t) throws {
        let directory = TemporaryDirectory()
        let target = directory.file("file")
        try ReplacedFile.write([1, 2, 3], to: target, mode: mode)
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mode & 0o7777 == mode)
    }

    @Test func aFailedReplacement_keepsTheOldFile_leavesNoStagingFile_andSaysWhy() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("taken")
        mkdir(target, 0o755) // rename of a file over a folder fails with EISDIR
        #expect(throws: SupervisorError.self) { try ReplacedFile.write(Array("x".utf8), to: target, mode: 0o644) }
        do {
            try ReplacedFile.write(Array("x".utf8), to: target, mode: 0o644)
        } catch {
            #expect(error.description.hasPrefix("cannot write \(target): "))
            #expect(error.description.contains(String(cString: strerror(EISDIR))))
        }
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        #expect(access("\(target).\(getpid()).tmp", F_OK) != 0)
    }
}
