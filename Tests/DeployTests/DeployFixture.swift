import Glibc
import Testing
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
        parts.removeLast(3) // Tests/DeployTests/DeployFixture.swift
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

    /// Parses manifest `text`, with programs in `binDirectory`.
    static func manifest(_ text: String, binDirectory: String = "/usr/local/bin") throws -> Manifest {
        let (manifest, problems) = ManifestParser.parse(
            text: text, baseDirectory: "/etc/vt", binDirectory: binDirectory, checkExecutables: false)
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
        try writeUnits(files, in: directory)
        return files
    }

    /// Writes `files` to `<directory>/units`, as an export writes its folder.
    static func writeUnits(_ files: [String: String], in directory: TemporaryDirectory) throws {
        _ = try GeneratedFolder(path: directory.file("units")).replace(with: files) { _ in false }
    }

    /// Links the programs into `<directory>/bin` (and `/bin/true` as the Litestream at
    /// `litestream`, when given), writes `files` to `<directory>/units` and expects
    /// ``verify(_:in:sourceLocation:)`` to pass.
    static func installAndVerify(
        _ files: [String: String], in directory: TemporaryDirectory, litestream: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try linkPrograms(in: directory)
        if let litestream {
            #expect(symlink("/bin/true", litestream) == 0, sourceLocation: sourceLocation)
        }
        try writeUnits(files, in: directory)
        try verify(files, in: directory, sourceLocation: sourceLocation)
    }

    /// `systemd-analyze verify` of the units of `files` in `<directory>/units`: it exits 0 even
    /// for unknown keys or bad values, only printing them, so any output at all fails. Returns
    /// the unit files it read.
    @discardableResult
    static func verify(
        _ files: [String: String], in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let unitKinds = [".service", ".socket", ".target"]
        let units = files.keys.filter { name in !name.contains("/") && unitKinds.contains { name.hasSuffix($0) } }
            .sorted()
            .map { directory.file("units/\($0)") }
        let result = try runCommand("/usr/bin/systemd-analyze", ["verify", "--man=no"] + units, in: directory)
        #expect(result.status == 0, sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)", sourceLocation: sourceLocation)
        #expect(result.standardError.isEmpty, "\(result.standardError)", sourceLocation: sourceLocation)
        return units
    }

    /// Runs `systemd-sysusers` on the exported `sysusers.d/verticals.conf` of `directory` (from
    /// ``installForTools(in:)``) against an empty system at `<directory>/root`; returns that root.
    static func sysusersRoot(in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let root = directory.file("root")
        mkdir(root, 0o755)
        mkdir("\(root)/etc", 0o755)
        let result = try runCommand(
            "/usr/bin/systemd-sysusers", ["--root=\(root)", directory.file("units/sysusers.d/verticals.conf")],
            in: directory)
        #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        return root
    }

    /// Runs `svc-supervisor export KIND` of the tests' suite into `<directory>/KIND` twice and
    /// expects the first run to write `expected` and, once a `stale` file and a `foreign` one
    /// (no export's) stand beside them, the second to remove the stale one only, writing
    /// nothing. Returns the folder.
    @discardableResult
    static func expectExportWritesThenOnlyWhatChanged(
        _ kind: String, expected: [String: String], stale: String, foreign: String, in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let out = directory.file(kind)
        let first = try runCommand(
            "svc-supervisor", ["export", kind, "--manifest", suitePath, "--out", out], in: directory)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)", sourceLocation: sourceLocation)
        let count = expected.count
        #expect(
            first.standardOutput.hasSuffix("\(count) files in \(out), \(count) changed\n"), "\(first.standardOutput)",
            sourceLocation: sourceLocation)
        #expect(ExportedFiles.onDisk(out) == expected, sourceLocation: sourceLocation)

        #expect(writeText("stale\n", to: "\(out)/\(stale)"), sourceLocation: sourceLocation)
        #expect(writeText("mine\n", to: "\(out)/\(foreign)"), sourceLocation: sourceLocation)
        let second = try runCommand(
            "svc-supervisor", ["export", kind, "--manifest", suitePath, "--out", out], in: directory)
        #expect(second.status == 0, "\(second.standardError)", sourceLocation: sourceLocation)
        #expect(
            second.standardOutput
                == "removed \(out)/\(stale) (no longer in the manifest)\n\(count) files in \(out), 0 changed\n",
            sourceLocation: sourceLocation)
        #expect(readFile("\(out)/\(foreign)") == "mine\n", sourceLocation: sourceLocation)
        return out
    }

    /// The value of every `key=` line of `unit`, in order.
    static func values(_ key: String, in unit: String) -> [String] {
        ExportedFiles.values(key, in: unit)
    }
}
