import Foundation
import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsManifest
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// A vertical with a `replica` gets a oneshot that restores its store from the replica before
/// the vertical starts where no store file is: the vertical's unit requires it and follows it,
/// it runs as the vertical's user in the replica unit's sandbox, and the export still passes
/// `systemd-analyze verify` with no output.
@Suite(.blocking)
struct SystemdReplicaRestoreTests {
    static let litestream = ToolLookup.which("litestream")
    /// Alpha's store, where its units put it.
    static let alphaStore = "/var/lib/verticals/alpha/alpha.sqlite"

    @Test func replica_getsARestoreTheVerticalRequires_sandboxed_andVerifies() throws {
        let directory = TemporaryDirectory()
        let (layout, files) = try SystemdReplicaTests.export(in: directory)

        let alpha = try #require(files["verticals-alpha-restore.service"])
        let vertical = try #require(files["verticals-alpha.service"])
        #expect(DeployFixture.values("Requires", in: vertical).contains("verticals-alpha-restore.service"))
        #expect(DeployFixture.values("After", in: vertical).contains("verticals-alpha-restore.service"))
        #expect(DeployFixture.values("Type", in: alpha) == ["oneshot"])
        #expect(DeployFixture.values("User", in: alpha) == ["verticals-alpha"])
        #expect(DeployFixture.values("StateDirectory", in: alpha) == ["verticals/alpha"])
        #expect(DeployFixture.values("PrivateNetwork", in: alpha) == ["yes"], "a folder replica needs no network")
        #expect(DeployFixture.values("ReadWritePaths", in: alpha).isEmpty, "a restore only reads its replica")
        #expect(
            DeployFixture.values("Restart", in: alpha).isEmpty, "a failed restore is not retried behind the vertical")
        #expect(
            DeployFixture.values("SetCredential", in: alpha)
                == DeployFixture.values("SetCredential", in: try #require(files["verticals-alpha-replica.service"])))
        let command = try #require(SystemdUnitReader.words(DeployFixture.values("ExecStart", in: alpha).joined()))
        let store = Self.alphaStore
        #expect(
            command == [
                layout.litestream, "restore", "-config", "%d/litestream.yml", "-no-expand-env", "-o", store,
                "-if-db-not-exists", "-if-replica-exists", store,
            ])

        let beta = try #require(files["verticals-beta-restore.service"])
        #expect(DeployFixture.values("PrivateNetwork", in: beta).isEmpty, "SFTP needs the network")
        #expect(DeployFixture.values("After", in: beta).contains("network-online.target"))
        #expect(DeployFixture.values("CapabilityBoundingSet", in: beta) == [""])
        #expect(files["verticals-gamma-restore.service"] == nil, "no replica, no restore")
        #expect(
            !DeployFixture.values("Requires", in: try #require(files["verticals-gamma.service"])).contains {
                $0.contains("restore")
            })

        try DeployFixture.linkPrograms(in: directory)
        #expect(symlink("/bin/true", layout.litestream) == 0)
        _ = try GeneratedFolder(path: directory.file("units")).replace(with: files) { _ in false }
        try DeployFixture.verify(files, in: directory)
    }

    /// The unit's command, run by the Litestream the tests install with the paths of a
    /// temporary folder: a store already there is left as it is, and an empty replica restores
    /// nothing; both succeed, so the vertical starts.
    @Test(.enabled(if: litestream != nil, "litestream is not on PATH: scripts/install-deps.sh --test installs it"))
    func restoreCommand_leavesAStoreThere_andSucceedsOnAnEmptyReplica() throws {
        let directory = TemporaryDirectory()
        let (_, files) = try SystemdReplicaTests.export(in: directory)
        let unit = try #require(files["verticals-alpha-restore.service"])
        let words = try #require(SystemdUnitReader.words(DeployFixture.values("ExecStart", in: unit).joined()))
        let store = directory.file("alpha.sqlite")
        let configPath = directory.file("litestream.yml")
        let configuration = LitestreamConfiguration(
            storePath: store, replica: Replica(target: .folder(path: directory.file("replica"))).forService("alpha"))
        try configuration.yaml.write(toFile: configPath, atomically: true, encoding: .utf8)
        let arguments = words.dropFirst().map { word in
            word == "%d/litestream.yml" ? configPath : word == Self.alphaStore ? store : word
        }

        let empty = try runCommand(try #require(Self.litestream), arguments, in: directory)
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store), "an empty replica restores nothing")

        try "not a store".write(toFile: store, atomically: true, encoding: .utf8)
        let there = try runCommand(try #require(Self.litestream), arguments, in: directory)
        #expect(there.status == 0, "\(there.standardError)")
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "not a store", "a store there is left as it is")
    }
}
