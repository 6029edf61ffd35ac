import Foundation
import ProcessTesting
import Testing
import VerticalsContractTesting

/// DESIGN.md's first rule, proven from the package's own description so that it cannot rot.
@Suite("The vertical rule")
struct VerticalRuleTests {
    @Test func noServiceReachesAnotherService_andIOInterfaceUsesOnlyWire() throws {
        let directory = TemporaryDirectory()
        // Its own scratch path: the live package's .build is locked while `swift test` runs.
        let result = try runCommand(
            "/usr/bin/env",
            ["swift", "package", "--package-path", files.folder.deletingLastPathComponent().deletingLastPathComponent().path,
             "--scratch-path", directory.file("scratch"), "dump-package"],
            environment: ProcessInfo.processInfo.environment, in: directory, timeout: .seconds(60))
        try #require(result.status == 0, "swift package dump-package failed: \(result.standardError)")
        let targets = try VerticalRule.targets(dumpPackageJSON: result.standardOutput)
        let services = Set(targets.compactMap(\.service))
        #expect(services.isSuperset(of: ["Identity", "Clinics", "Appointments", "Records", "Notifications", "Supervisor"]))
        #expect(VerticalRule.violations(targets) == [])
    }

    @Test func aServiceReachingAnotherThroughAThirdTarget_isNamedWithThePath() {
        let targets = [
            VerticalRule.Target(name: "VerticalsWire", path: "Shared/Wire", dependencies: []),
            VerticalRule.Target(name: "IOInterface", path: "Shared/IOInterface", dependencies: ["VerticalsWire", "Helpers"]),
            VerticalRule.Target(name: "Helpers", path: "Shared/Helpers", dependencies: ["IdentityService"]),
            VerticalRule.Target(name: "IdentityService", path: "Services/Identity/Sources", dependencies: ["IOInterface"]),
            VerticalRule.Target(name: "AppointmentsService", path: "Services/Appointments/Sources", dependencies: ["Helpers"]),
        ]
        let problems = VerticalRule.violations(targets)
        #expect(problems.contains { $0.hasPrefix("AppointmentsService") && $0.contains("Helpers → IdentityService") })
        #expect(problems.contains { $0.hasPrefix("IOInterface depends on Helpers") })
    }
}
