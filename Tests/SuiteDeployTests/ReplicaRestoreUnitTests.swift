import Foundation
import GRDB
import Glibc
import IdentityService
import RecordsService
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsManifest
import VerticalsStorage
import VerticalsSupervisor
import VerticalsTesting

/// The exported `verticals-records-restore.service` run as systemd runs it on a host that lost
/// its disk, its commands in order with the real Litestream and the real svc-records, in a
/// temporary folder: a replica that holds another vertical's store gives no store, the copy kept
/// aside; one that holds records's own gives it back, checked, and the daemon opens it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct ReplicaRestoreUnitTests {
    /// `litestream` on PATH (`scripts/install-deps.sh --test` puts it in .build/venv/bin).
    static let litestream = ToolLookup.which("litestream")

    /// One host: its state folder, its folder replica, and the restore unit's commands with the
    /// host's paths in place of the unit's.
    struct Host {
        let directory = TemporaryDirectory()
        let litestream: String
        var state: String { directory.file("state") }
        var store: String { "\(state)/records.sqlite" }
        var configPath: String { directory.file("litestream.yml") }
        let commands: [[String]]

        init(litestream: String) throws {
            self.litestream = litestream
            let replica = directory.file("replica")
            var layout = SystemdLayout(prefix: directory.path)
            layout.litestream = litestream
            let (manifest, problems) = ManifestParser.parse(
                text: """
                    [services.records]
                    executable = "svc-records"
                    replica = { type = "folder", path = "\(replica)" }
                    """,
                baseDirectory: "/etc/vt", binDirectory: layout.binDirectory, checkExecutables: false)
            #expect(problems.isEmpty, "\(problems)")
            let files = try SystemdExport.files(for: manifest, layout: layout)
            let unit = try #require(files["verticals-records-restore.service"])
            let unitState = "/var/lib/verticals/records/"
            let (state, configPath) = ("\(directory.file("state"))/", directory.file("litestream.yml"))
            commands = unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }.map { line in
                #expect(!line.contains("\""), "no word of the test's paths is quoted: \(line)")
                return line.dropFirst("ExecStart=".count).split(separator: " ").map { word in
                    word == "%d/litestream.yml"
                        ? configPath
                        : word.hasSuffix("/svc-records")
                            ? "svc-records" : String(word).replacing(unitState, with: state)
                }
            }
            let configuration = LitestreamConfiguration(
                storePath: store, replica: Replica(target: .folder(path: replica)).forService("records"))
            try configuration.yaml.write(toFile: self.configPath, atomically: true, encoding: .utf8)
        }

        /// The replica gets a snapshot of a store at records's path, written by vertical `owner`
        /// with `migrator`; then the host's state folder is lost.
        func seed(owner: String, migrator: DatabaseMigrator) throws {
            #expect(mkdir(state, 0o700) == 0)
            let pool = try SQLiteStore.$replication.withValue(.litestream) {
                try SQLiteStore.open(
                    directory: state, fileName: "records.sqlite", owner: StoreOwner(owner), migrator: migrator)
            }
            try pool.close()
            let once = try runCommand(
                litestream, ["replicate", "-once", "-force-snapshot", "-config", configPath], in: directory)
            #expect(once.status == 0, "\(once.standardError)")
            try FileManager.default.removeItem(atPath: state)
        }

        /// The unit's commands in order, as systemd runs a oneshot's (its StateDirectory= made
        /// first, the first failure ends it); each one's result.
        func restore() throws -> [CommandResult] {
            #expect(mkdir(state, 0o700) == 0)
            var results: [CommandResult] = []
            for command in commands {
                results.append(
                    try runCommand(
                        command[0], Array(command.dropFirst()), environment: ["STATE_DIRECTORY": state], in: directory))
                if results.last?.status != 0 { break }
            }
            return results
        }
    }

    @Test(.enabled(if: litestream != nil, "litestream is not on PATH: scripts/install-deps.sh --test installs it"))
    func restoreUnit_placesOnlyACopyThatPassedTheChecks() throws {
        let litestream = try #require(Self.litestream)
        let hostile = try Host(litestream: litestream)
        #expect(hostile.commands.count == 2, "\(hostile.commands)")
        try hostile.seed(owner: "identity", migrator: IdentityService.Migrations.all)

        let refused = try hostile.restore()

        #expect(refused.map(\.status) == [0, 78], "\(refused.map(\.standardError))")
        #expect(refused.last?.standardError.contains("not records's") == true, "\(refused.last?.standardError ?? "")")
        #expect(access(hostile.store, F_OK) != 0, "no store is made of another vertical's copy")
        #expect(access("\(hostile.state)/records.from-replica.refused.sqlite", F_OK) == 0, "the copy is kept aside")

        let good = try Host(litestream: litestream)
        try good.seed(owner: "records", migrator: RecordsService.Migrations.all)

        let placed = try good.restore()
        let check = try runCommand(
            "svc-records", ["--check"],
            environment: ["STATE_DIRECTORY": good.state, "VERTICALS_SOCKET_DIR": good.directory.file("sockets")],
            in: good.directory)

        #expect(placed.map(\.status) == [0, 0], "\(placed.map(\.standardError))")
        #expect(access("\(good.state)/records.from-replica.sqlite", F_OK) != 0, "the copy took the store's name")
        #expect(check.status == 0 && check.standardOutput.contains("opened and migrated"), "\(check.standardError)")
    }
}
