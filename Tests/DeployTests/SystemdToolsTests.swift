import Glibc
import Testing
import VerticalsDeployTesting
import VerticalsTesting

/// The exported files as systemd's own tools read them, with every `ExecStart=` pointing at
/// the programs this build made.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2))) struct SystemdToolsTests {
    /// `systemd-analyze verify` exits 0 even for unknown keys or bad values; it only prints
    /// them. So any output at all is a failure.
    @Test func verify_acceptsEveryUnit_withoutASingleWarning() throws {
        let directory = TemporaryDirectory()
        let units = try DeployFixture.verify(DeployFixture.installForTools(in: directory), in: directory)
        // A .socket and a .service per vertical, the target and svc-supervisor.service.
        #expect(units.count == 2 * DeployFixture.verticals.count + 2)
    }

    @Test func verify_wouldCatchABadKey() throws {
        let directory = TemporaryDirectory()
        let files = try DeployFixture.installForTools(in: directory)
        let unit = directory.file("units/verticals-ledger.service")
        #expect(writeText((files["verticals-ledger.service"] ?? "") + "RestartSteps=5\n", to: unit))
        let result = try runCommand("/usr/bin/systemd-analyze", ["verify", "--man=no", unit], in: directory)
        #expect(result.standardError.contains("RestartSteps"), "\(result.standardError)")
    }

    @Test(arguments: DeployFixture.verticals)
    func security_ratesEachVerticalSafe_atMostHalf_readingSetpriorityAsAllowed(vertical: String) throws {
        let directory = TemporaryDirectory()
        _ = try DeployFixture.installForTools(in: directory)
        let unit = directory.file("units/verticals-\(vertical).service")
        let result = try runCommand("/usr/bin/systemd-analyze", ["security", "--offline=true", unit], in: directory)
        let score = try #require(
            Self.exposure(result.standardOutput), "\(result.standardOutput)\(result.standardError)")
        #expect(score <= 0.5, "verticals-\(vertical).service scores \(score)")
        // systemd 252 itself reads the allow line after the deny list as putting setpriority back
        // (libdispatch renices its worker threads; see SystemdSandbox.swift).
        let resources = result.standardOutput.split(separator: "\n").first {
            $0.contains("SystemCallFilter=~@resources")
        }
        #expect(resources?.contains("setpriority is allowed") == true, "\(result.standardOutput)")
        print("systemd-analyze security --offline=true verticals-\(vertical).service: \(score)")
    }

    /// The supervisor's unit as systemd reads it: no new privileges, and none of the
    /// capabilities it does not use (administration, tracing, BPF, network administration).
    @Test func security_readsTheSupervisorsUnit_withoutNewPrivileges_orCapabilitiesItDoesNotUse() throws {
        let directory = TemporaryDirectory()
        _ = try DeployFixture.installForTools(in: directory)
        let unit = directory.file("units/svc-supervisor.service")
        let result = try runCommand("/usr/bin/systemd-analyze", ["security", "--offline=true", unit], in: directory)
        let lines = result.standardOutput.split(separator: "\n")
        for setting in [
            "NoNewPrivileges=", "RestrictSUIDSGID=", "CapabilityBoundingSet=~CAP_SYS_ADMIN",
            "CapabilityBoundingSet=~CAP_SYS_PTRACE",
            "CapabilityBoundingSet=~CAP_BPF", "CapabilityBoundingSet=~CAP_NET_ADMIN",
            "CapabilityBoundingSet=~CAP_SYS_MODULE",
        ] {
            let line = lines.first { $0.contains(" \(setting) ") }
            #expect(line?.hasPrefix("✓") == true, "\(setting): \(line ?? "absent")\n\(result.standardOutput)")
        }
        print(
            "systemd-analyze security --offline=true svc-supervisor.service: \(Self.exposure(result.standardOutput) ?? -1)"
        )
    }

    @Test func sysusers_createsTheGroupAndOneStaticUserPerVertical() throws {
        let directory = TemporaryDirectory()
        _ = try DeployFixture.installForTools(in: directory)
        let root = try DeployFixture.sysusersRoot(in: directory)
        let passwd = readFile("\(root)/etc/passwd") ?? ""
        let users = passwd.split(separator: "\n").map { $0.split(separator: ":", omittingEmptySubsequences: false) }
        for vertical in DeployFixture.verticals {
            let user = try #require(users.first { $0.first == Substring("verticals-\(vertical)") }, "\(passwd)")
            #expect(user.count == 7 && Int(user[2]).map { $0 > 0 && $0 < 1000 } == true, "a system uid: \(user)")
        }
        #expect((readFile("\(root)/etc/group") ?? "").split(separator: "\n").contains { $0.hasPrefix("verticals:") })
    }

    /// After sysusers, as at boot and in docs/systemd.md: the folder is the group's, 0750.
    @Test(.enabled(if: geteuid() == 0, "needs root: systemd-tmpfiles gives the folder to root and the verticals group"))
    func tmpfiles_makesTheSocketFolder_forRootAndTheGroupOnly() throws {
        let directory = TemporaryDirectory()
        _ = try DeployFixture.installForTools(in: directory)
        let root = try DeployFixture.sysusersRoot(in: directory)
        let result = try runCommand(
            "/usr/bin/systemd-tmpfiles",
            ["--root=\(root)", "--create", directory.file("units/tmpfiles.d/verticals.conf")], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        var info = stat()
        #expect(stat("\(root)/run/verticals", &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o750)
        let group = (readFile("\(root)/etc/group") ?? "").split(separator: "\n").first { $0.hasPrefix("verticals:") }
        let gid = group.flatMap { $0.split(separator: ":", omittingEmptySubsequences: false).dropFirst(2).first }
        #expect(
            info.st_uid == 0 && gid.flatMap { UInt32($0) } == info.st_gid,
            "owner \(info.st_uid):\(info.st_gid), group line \(group ?? "none")")
    }

    /// The number in "→ Overall exposure level for NAME.service: 0.4 SAFE :-}".
    static func exposure(_ output: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }),
            let unit = line.range(of: ".service: ")
        else { return nil }
        return line[unit.upperBound...].split(separator: " ").first.flatMap { Double($0) }
    }
}
