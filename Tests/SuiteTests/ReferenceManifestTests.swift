import Testing
import VerticalsSupervisor
import VerticalsTesting

/// The reference suite's own manifest, deploy/suite.toml: read by the supervisor's parser and
/// checked by `svc-supervisor check` against the built daemons.
@Suite(.blocking) struct ReferenceManifestTests {
    @Test func realSuite_withTheBuiltBinaries_hasNoProblems() throws {
        let (manifest, problems) = ManifestParser.load(
            path: "\(NewCommandTests.repositoryRoot)/deploy/suite.toml", binDirectory: DaemonProcess.productsDirectory)
        #expect(problems == [])
        // The reference suite first, in file order; verticals added by `svc-supervisor new` follow.
        #expect(
            manifest.services.map(\.name).prefix(5) == [
                "identity", "clinics", "notifications", "records", "appointments",
            ])
        #expect(manifest.services.allSatisfy { $0.readiness == .notify && $0.socket })
        #expect(manifest["identity"]?.executable == "\(DaemonProcess.productsDirectory)/svc-identity")
        #expect(manifest["appointments"]?.dependsOn == ["identity", "clinics", "notifications"])
        #expect(manifest["appointments"]?.budget == RestartBudget(maxRestarts: 10, window: .seconds(60)))
        #expect(manifest["records"]?.logMaxBytes == 10 << 20)
    }

    @Test func realSuite_startsIdentityFirstAndAppointmentsLast() throws {
        let (manifest, _) = ManifestParser.load(
            path: "\(NewCommandTests.repositoryRoot)/deploy/suite.toml", binDirectory: DaemonProcess.productsDirectory)
        let reference: Set = ["identity", "clinics", "notifications", "records", "appointments"]
        #expect(
            try manifest.startOrder().filter(reference.contains) == [
                "identity", "clinics", "notifications", "records", "appointments",
            ])
        #expect(
            try manifest.stopOrder().filter(reference.contains) == [
                "appointments", "records", "notifications", "clinics", "identity",
            ])
    }

    @Test func realSuite_isOk() throws {
        let result = try runCommand(
            "svc-supervisor", ["check", "--manifest", "\(NewCommandTests.repositoryRoot)/deploy/suite.toml"],
            in: TemporaryDirectory())
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let (manifest, _) = ManifestParser.load(
            path: "\(NewCommandTests.repositoryRoot)/deploy/suite.toml", binDirectory: DaemonProcess.productsDirectory)
        #expect(manifest.services.count >= 5)
        #expect(result.standardOutput == "ok: \(manifest.services.count) services\n")
    }
}
