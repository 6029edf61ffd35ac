import Glibc
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Shared by the deploy tests: the repository, and the tests' own suite, five vt-testd verticals
/// calling one another's TestEcho operations, and its export.
enum DeployFixture {
    /// The repository's root, from this file's place in it.
    static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/")
        parts.removeLast(3)  // Tests/DeployTests/DeployFixture.swift
        return "/" + parts.joined(separator: "/")
    }()

    /// The tests' suite in its manifest's order: a vertical everyone calls, one called by two,
    /// one with an internal operation, and two that call three others.
    static let verticals = ["ledger", "catalog", "mailer", "archive", "bookings"]

    /// The program every vertical of the tests' suite runs, as vertical `args[0]`.
    static let program = "vt-testd"

    /// The folder of the tests' manifests.
    static let fixtures = "\(repositoryRoot)/Tests/DeployTests/Fixtures"

    /// The tests' suite on one host (`Fixtures/suite.toml`).
    static let suitePath = "\(fixtures)/suite.toml"

    /// The tests' suite parsed for `layout`, as `svc-supervisor export systemd` parses a manifest.
    static func suiteManifest(layout: SystemdLayout = SystemdLayout()) throws -> Manifest {
        try load(suitePath, binDirectory: layout.binDirectory)
    }

    /// The manifest at `path`, with bare executables in `binDirectory`.
    static func load(_ path: String, binDirectory: String) throws -> Manifest {
        let (manifest, problems) = ManifestParser.load(path: path, binDirectory: binDirectory, checkExecutables: false)
        guard problems.isEmpty else { throw FixtureError("\(path): \(problems)") }
        return manifest
    }

    /// Parses manifest `text`, with programs in `/usr/local/bin`.
    static func manifest(_ text: String) throws -> Manifest {
        let (manifest, problems) = ManifestParser.parse(
            text: text, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        guard problems.isEmpty else { throw FixtureError("\(problems)") }
        return manifest
    }

    /// Links vt-testd and svc-supervisor, as this build made them, into `<directory>/bin`.
    static func linkPrograms(in directory: TemporaryDirectory) throws {
        let bin = directory.file("bin")
        mkdir(bin, 0o755)
        for program in [Self.program, "svc-supervisor"] {
            guard symlink("\(DaemonProcess.productsDirectory)/\(program)", "\(bin)/\(program)") == 0 else {
                throw FixtureError("cannot link \(program) into \(bin)")
            }
        }
    }

    /// The tests' suite exported with its programs in `<directory>/bin`, linked to the built
    /// ones, and its files written to `<directory>/units`; returns the files by path.
    static func installForTools(in directory: TemporaryDirectory) throws -> [String: String] {
        try linkPrograms(in: directory)
        let layout = SystemdLayout(prefix: directory.path)
        let files = try SystemdExport.files(for: suiteManifest(layout: layout), layout: layout)
        _ = try GeneratedFolder(path: directory.file("units")).replace(with: files) { _ in false }
        return files
    }

    /// The value of every `key=` line of `unit`, in order.
    static func values(_ key: String, in unit: String) -> [String] {
        ExportedFiles.values(key, in: unit)
    }
}
