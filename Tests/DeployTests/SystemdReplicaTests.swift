import Glibc
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// A vertical with a `replica` gets Litestream in a unit of its own, bound to the vertical's, in
/// its sandbox, its configuration a credential of the unit; the export still passes
/// `systemd-analyze verify` with no output.
@Suite(.blocking)
struct SystemdReplicaTests {
    static let hostKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"

    /// Three verticals, alpha replicated to a folder (`alphaFolder`, as user `alphaUser` when
    /// given), beta over SFTP, gamma not, exported with their programs and Litestream under
    /// `directory`.
    static func export(
        in directory: TemporaryDirectory, alphaFolder: String = "/mnt/replica 50%", alphaUser: String? = nil
    ) throws -> (SystemdLayout, [String: String]) {
        var layout = SystemdLayout(prefix: directory.path)
        layout.litestream = "\(layout.binDirectory)/litestream"
        let manifest = try DeployFixture.manifest(
            """
            [services.alpha]
            executable = "\(DeployFixture.program)"\(alphaUser.map { "\nuser = \"\($0)\"" } ?? "")
            replica = { type = "folder", path = "\(alphaFolder)", sync_interval = "2s" }
            [services.beta]
            executable = "\(DeployFixture.program)"
            replica = { type = "sftp", host = "backup.example.net", path = "/r", key_file = "/etc/r/{name}.key", host_key = "\(Self.hostKey)" }
            [services.gamma]
            executable = "\(DeployFixture.program)"
            """, binDirectory: layout.binDirectory)
        return (layout, try SystemdExport.files(for: manifest, layout: layout))
    }

    @Test func replica_becomesAUnitBoundToTheVerticals_sandboxed_andVerifies() throws {
        let directory = TemporaryDirectory()
        let (layout, files) = try Self.export(in: directory)

        let alpha = try #require(files["verticals-alpha-replica.service"])
        #expect(DeployFixture.values("BindsTo", in: alpha) == ["verticals-alpha.service"])
        #expect(DeployFixture.values("User", in: alpha) == ["verticals-alpha"])
        #expect(DeployFixture.values("PrivateNetwork", in: alpha) == ["yes"], "a folder replica needs no network")
        #expect(
            DeployFixture.values("ReadWritePaths", in: alpha) == ["\"-/mnt/replica 50%%/alpha\""],
            "left out where missing: systemd 252 sets up the namespace of the `+` mkdir that makes it too")
        let credential = try #require(DeployFixture.values("SetCredential", in: alpha).first)
        #expect(credential.hasPrefix("litestream.yml:# Litestream"))
        #expect(credential.contains(#"\n      path: \"/mnt/replica 50%%/alpha\"\n"#), "\(credential)")
        #expect(!credential.contains("\n"))
        #expect(
            DeployFixture.values("Wants", in: try #require(files["verticals-alpha.service"])).contains(
                "verticals-alpha-replica.service"))
        #expect(
            DeployFixture.values("Environment", in: try #require(files["verticals-alpha.service"])).contains(
                "\"VERTICALS_STORE_REPLICA=litestream\""))

        let beta = try Self.expectBetaOverSFTP_andNoneForGamma(
            files, unit: "replica", gammaKey: "Environment", naming: "VERTICALS_STORE_REPLICA")
        #expect(DeployFixture.values("RestrictAddressFamilies", in: beta) == ["AF_UNIX AF_INET AF_INET6"])

        try DeployFixture.installAndVerify(files, in: directory, litestream: layout.litestream)
    }

    /// Beta's and gamma's share of ``export(in:alphaFolder:alphaUser:)``'s `files` in units of
    /// kind `unit` (`replica`, `restore`): beta's `verticals-beta-<unit>.service`, over SFTP, may
    /// reach the network and holds no capability; gamma, with no replica, has no such unit, and no
    /// `gammaKey` line of its vertical's unit holds `naming`. Returns beta's unit.
    static func expectBetaOverSFTP_andNoneForGamma(
        _ files: [String: String], unit: String, gammaKey: String, naming: String
    ) throws -> String {
        let beta = try #require(files["verticals-beta-\(unit).service"])
        #expect(DeployFixture.values("PrivateNetwork", in: beta).isEmpty, "SFTP needs the network")
        #expect(DeployFixture.values("CapabilityBoundingSet", in: beta) == [""])
        #expect(files["verticals-gamma-\(unit).service"] == nil, "no replica, no \(unit) unit")
        let gamma = try #require(files["verticals-gamma.service"])
        #expect(!DeployFixture.values(gammaKey, in: gamma).contains { $0.contains(naming) }, "\(gamma)")
        return beta
    }
}
