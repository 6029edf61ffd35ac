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
    /// Where its restore writes the copy to check.
    static let alphaCopy = "/var/lib/verticals/alpha/alpha.from-replica.sqlite"

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
        let commands = DeployFixture.values("ExecStart", in: alpha)
        let store = Self.alphaStore
        #expect(DeployFixture.values("ConditionPathExists", in: alpha) == ["!\(store)"], "only where no store is")
        #expect(
            SystemdUnitReader.words(commands.first ?? "") == [
                layout.litestream, "restore", "-config", "%d/litestream.yml", "-no-expand-env", "-o", Self.alphaCopy,
                "-if-db-not-exists", "-if-replica-exists", store,
            ], "the replica's copy goes beside the store, never in its place")
        #expect(
            commands.count == 2 && SystemdUnitReader.words(commands[1])?.last == "--place-replica-copy",
            "the vertical's program checks the copy and places it: \(commands)")

        let beta = try SystemdReplicaTests.expectBetaOverSFTP_andNoneForGamma(
            files, unit: "restore", gammaKey: "Requires", naming: "restore")
        #expect(DeployFixture.values("After", in: beta).contains("network-online.target"))

        try DeployFixture.installAndVerify(files, in: directory, litestream: layout.litestream)
    }

    /// The unit's Litestream command, run by the Litestream the tests install with the paths of
    /// a temporary folder: an empty replica restores nothing and succeeds, so the vertical
    /// starts; a copy there already is left for the check, never overwritten.
    @Test(.enabled(if: litestream != nil, "litestream is not on PATH: scripts/install-deps.sh --test installs it"))
    func restoreCommand_succeedsOnAnEmptyReplica_andWritesOnlyTheCopy() throws {
        let directory = TemporaryDirectory()
        let (_, files) = try SystemdReplicaTests.export(in: directory)
        let unit = try #require(files["verticals-alpha-restore.service"])
        let words = try #require(SystemdUnitReader.words(DeployFixture.values("ExecStart", in: unit).first ?? ""))
        let store = directory.file("alpha.sqlite")
        let copy = directory.file("alpha.from-replica.sqlite")
        let configPath = directory.file("litestream.yml")
        let configuration = LitestreamConfiguration(
            storePath: store, replica: Replica(target: .folder(path: directory.file("replica"))).forService("alpha"))
        try configuration.yaml.write(toFile: configPath, atomically: true, encoding: .utf8)
        let arguments = words.dropFirst().map { word in
            word == "%d/litestream.yml"
                ? configPath : word == Self.alphaStore ? store : word == Self.alphaCopy ? copy : word
        }

        let empty = try runCommand(try #require(Self.litestream), arguments, in: directory)
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store), "an empty replica restores nothing")
        #expect(!FileManager.default.fileExists(atPath: copy))

        try "a copy".write(toFile: copy, atomically: true, encoding: .utf8)
        let there = try runCommand(try #require(Self.litestream), arguments, in: directory)
        #expect(there.status == 0, "\(there.standardError)")
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "a copy", "a copy there is left for the check")
        #expect(!FileManager.default.fileExists(atPath: store), "the store's path is never written")
    }
}
