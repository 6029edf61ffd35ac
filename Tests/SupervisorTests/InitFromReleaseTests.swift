import Glibc
import Testing
import VerticalsContract
import VerticalsTesting

/// `svc-supervisor init --framework-url … --framework-version X.Y.Z`: a product that depends on a
/// tagged release, not on a path. A bare clone of this checkout, tagged `vX.Y.Z` as a release is,
/// stands in for the published repository; SwiftPM resolves the product's dependency to that tag.
@Suite(.serialized, .timeLimit(.minutes(20)))
struct InitFromReleaseTests {
    @Test func init_fromATaggedRelease_dependsOnItsVersion_andSwiftPMResolvesTheTag() throws {
        let directory = TemporaryDirectory()
        let bare = directory.file("verticals.git")
        let version = VerticalsVersion.current
        let git = try runCommand(
            "/bin/sh",
            ["-c", "git clone --quiet --bare \"$0\" \"$1\" && git -C \"$1\" tag \"v$2\" HEAD",
             ManifestFixture.repositoryRoot, bare, version],
            environment: PackageBuild.toolchainEnvironment, in: directory, timeout: .seconds(120))
        try #require(git.status == 0, "\(git.standardError)")

        let product = directory.file("acme")
        let url = "file://\(bare)"
        let created = try runCommand(
            "svc-supervisor",
            ["init", product, "--name", "Acme", "--framework-url", url, "--framework-version", version, "--skip-fixtures"],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(120))
        try #require(created.status == 0, "\(created.standardOutput)\n\(created.standardError)")
        let manifest = try #require(readFile("\(product)/Package.swift"))
        #expect(manifest.contains(".package(url: \"\(url)\", from: \"\(version)\")"), "\(manifest)")
        #expect(!manifest.contains(".package(path:"), "a release product names no local path")

        let resolved = try runCommand(
            "/bin/sh", ["-c", "cd \"$0\" && swift package resolve 2>&1 | tail -5", product],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(900))
        #expect(resolved.status == 0, "\(resolved.standardOutput)")
        let pins = try #require(readFile("\(product)/Package.resolved"), "no Package.resolved: \(resolved.standardOutput)")
        // The framework's pin: from its identity to the next pin's.
        let start = pins.firstRange(of: "\"identity\" : \"verticals\"")
        let pin = start.map { pins[$0.upperBound...].split(separator: "\"identity\"").first ?? "" } ?? ""
        #expect(pin.contains("\"version\" : \"\(version)\""), "the framework is not pinned to the tag: \(pins)")
    }
}
