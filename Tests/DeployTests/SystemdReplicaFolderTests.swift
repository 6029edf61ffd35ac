import Glibc
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// A folder replica's `PATH/NAME` is writable in its Litestream unit (`ReadWritePaths=`), which
/// systemd refuses to start (226/NAMESPACE) while the folder is missing, as on a first deploy:
/// the unit makes it first, as root, and gives it to the vertical's user; it never makes `PATH`.
@Suite(.blocking)
struct SystemdReplicaFolderTests {
    /// The unit's `ExecStartPre=` commands as systemd splits them, each without its prefix, and
    /// whether systemd ignores its failure (`-`).
    static func commands(in unit: String) throws -> [(words: [String], mayFail: Bool)] {
        try DeployFixture.values("ExecStartPre", in: unit).map { value in
            let prefix = value.prefix { "-+@:!".contains($0) }
            #expect(prefix.contains("+"), "runs as root, before the sandbox: \(value)")
            let words = try #require(SystemdUnitReader.words(String(value.dropFirst(prefix.count))))
            return (words, prefix.contains("-"))
        }
    }

    @Test func folderReplica_isMadeBeforeLitestreamStarts_onlyThere_andTheExportVerifies() throws {
        let directory = TemporaryDirectory()
        let (layout, files) = try SystemdReplicaTests.export(in: directory)
        let alpha = try #require(files["verticals-alpha-replica.service"])
        let made = try Self.commands(in: alpha)
        #expect(made.map(\.words.first) == ["/bin/mkdir", "/bin/test", "/bin/chown"])
        #expect(
            made.map(\.mayFail) == [true, false, false],
            "a folder there already is no failure; a link there or a missing PATH is")
        #expect(made.first?.words.dropFirst().elementsEqual(["-m", "0700", "/mnt/replica 50%%/alpha"]) == true)
        #expect(
            made.dropFirst().first?.words.dropFirst().elementsEqual(["!", "-L", "/mnt/replica 50%%/alpha"]) == true)
        #expect(
            made.last?.words.dropFirst().elementsEqual(["-h", "verticals-alpha", "/mnt/replica 50%%/alpha"]) == true)
        #expect(!made.contains { $0.words.contains("-p") }, "PATH is never made")
        #expect(
            DeployFixture.values("ReadWritePaths", in: alpha) == ["\"-/mnt/replica 50%%/alpha\""],
            "left out where missing: systemd 252 sets up the namespace of the `+` mkdir that makes it too")

        for unit in ["verticals-beta-replica.service", "verticals-alpha-restore.service", "verticals-alpha.service"] {
            #expect(DeployFixture.values("ExecStartPre", in: try #require(files[unit])).isEmpty, "\(unit)")
        }

        try DeployFixture.installAndVerify(files, in: directory, litestream: layout.litestream)
    }

    /// The commands themselves, as root runs them in order, each failure but an ignored one ending
    /// the start as systemd's does: a missing folder is made the user's, 0700; one that is there is
    /// given back to the user; a missing PATH fails, and nothing is made; a symbolic link planted
    /// at `PATH/NAME` fails before anything is given away, its target left as it was.
    @Test(.enabled(if: geteuid() == 0, "needs root: gives a folder to another user"))
    func folderCommands_makeTheFolderTheUsers_andFailWherePathIsMissingOrALink() throws {
        let directory = TemporaryDirectory()
        let (_, files) = try SystemdReplicaTests.export(
            in: directory, alphaFolder: directory.file("replica"), alphaUser: "nobody")
        let commands = try Self.commands(in: try #require(files["verticals-alpha-replica.service"]))
        let folder = directory.file("replica/alpha")
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        func run() throws -> [Int32] {
            var statuses: [Int32] = []
            for command in commands {
                statuses.append(
                    try runCommand(command.words[0], Array(command.words.dropFirst()), in: directory).status)
                if statuses.last != 0 && !command.mayFail { break }
            }
            return statuses
        }

        let missingPath = try run()
        #expect(missingPath.count == 3 && missingPath.last != 0, "chown fails where PATH is missing")
        #expect(access(directory.file("replica"), F_OK) != 0, "PATH is not made")

        #expect(mkdir(directory.file("replica"), 0o755) == 0)
        #expect(try run() == [0, 0, 0])
        var info = stat()
        #expect(lstat(folder, &info) == 0)
        #expect(info.st_uid == nobody && info.st_mode & 0o7777 == 0o700)

        #expect(chown(folder, 0, 0) == 0)
        let again = try run()
        #expect(
            again.first != 0 && again.dropFirst() == [0, 0], "mkdir fails on a folder there, which systemd ignores")
        #expect(lstat(folder, &info) == 0 && info.st_uid == nobody)

        let target = directory.file("target")
        #expect(mkdir(target, 0o700) == 0 && rmdir(folder) == 0 && symlink(target, folder) == 0)
        let planted = try run()
        #expect(planted.count == 2 && planted.last != 0, "a link at PATH/NAME fails the unit: \(planted)")
        #expect(lstat(target, &info) == 0 && info.st_uid == 0, "its target is not given away")
    }
}
