import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsManifest
import VerticalsSupervisor

/// The reference suite's deployment as the repository holds it: `deploy/suite.toml`, parsed as
/// each export parses it, and the folders exported from it.
enum SuiteDeployFixture {
    /// The repository's root, from this file's place in it.
    static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/")
        parts.removeLast(3) // Tests/SuiteDeployTests/SuiteDeployFixture.swift
        return "/" + parts.joined(separator: "/")
    }()

    /// `deploy/suite.toml`'s path.
    static var manifestPath: String { "\(repositoryRoot)/deploy/suite.toml" }

    /// The reference suite's five verticals, which the tests that make real calls know how to call.
    static let referenceSuite = ["identity", "clinics", "notifications", "records", "appointments"]

    /// `deploy/suite.toml` parsed for `layout`, as `svc-supervisor export systemd` parses it.
    static func suiteManifest(layout: SystemdLayout = SystemdLayout()) throws -> Manifest {
        try load(binDirectory: layout.binDirectory)
    }

    /// `deploy/suite.toml` parsed as ``suiteManifest(layout:)`` does, with `service`'s
    /// `depends_on` set to `dependsOn`.
    static func suiteManifest(where service: String, dependsOn: [String]) throws -> Manifest {
        var manifest = try suiteManifest()
        guard let index = manifest.services.firstIndex(where: { $0.name == service }) else {
            throw FixtureError("deploy/suite.toml has no service \(service)")
        }
        let problems = manifest.services[index].setDependsOn(dependsOn)
        guard problems.isEmpty else { throw FixtureError("depends_on = \(dependsOn): \(problems)") }
        return manifest
    }

    /// `deploy/suite.toml`, with bare executables in the image's bin folder, as `export kubernetes` parses it.
    static func kubernetesManifest() throws -> Manifest {
        try load(binDirectory: KubernetesLayout().binDirectory)
    }

    private static func load(binDirectory: String) throws -> Manifest {
        let (manifest, problems) = ManifestParser.load(
            path: manifestPath, binDirectory: binDirectory, checkExecutables: false)
        guard problems.isEmpty else { throw FixtureError("deploy/suite.toml: \(problems)") }
        return manifest
    }
}
