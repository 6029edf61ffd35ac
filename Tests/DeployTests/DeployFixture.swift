import Glibc
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Shared by the deploy tests: the repository, the suite's manifest and its export.
enum DeployFixture {
    /// The repository's root, from this file's place in it.
    static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/")
        parts.removeLast(3)  // Tests/DeployTests/DeployFixture.swift
        return "/" + parts.joined(separator: "/")
    }()

    /// The reference suite's five verticals, which the tests that make real calls know how to call.
    static let referenceSuite = ["identity", "clinics", "notifications", "records", "appointments"]

    /// Every service of the manifest, in its order: the reference suite, then any vertical
    /// added since (`svc-supervisor new`).
    static let verticals: [String] = (try? suiteManifest().services.map(\.name)) ?? referenceSuite

    /// `deploy/suite.toml` parsed for `layout`, as `svc-supervisor export systemd` parses it.
    static func suiteManifest(layout: SystemdLayout = SystemdLayout()) throws -> Manifest {
        let (manifest, problems) = ManifestParser.load(
            path: "\(repositoryRoot)/deploy/suite.toml", binDirectory: layout.binDirectory, checkExecutables: false)
        guard problems.isEmpty else { throw FixtureError("deploy/suite.toml: \(problems)") }
        return manifest
    }

    /// Parses manifest `text`, with programs in `/usr/local/bin`.
    static func manifest(_ text: String) throws -> Manifest {
        let (manifest, problems) = ManifestParser.parse(
            text: text, baseDirectory: "/etc/vt", binDirectory: "/usr/local/bin", checkExecutables: false)
        guard problems.isEmpty else { throw FixtureError("\(problems)") }
        return manifest
    }

    /// The suite exported with its programs in `<directory>/bin`, linked to the built ones, and
    /// its files written to `<directory>/units`; returns the files by path.
    static func installForTools(in directory: TemporaryDirectory) throws -> [String: String] {
        let prefix = directory.path
        let bin = directory.file("bin")
        mkdir(bin, 0o755)
        for program in verticals.map({ "svc-\($0)" }) + ["svc-supervisor"] {
            guard symlink("\(DaemonProcess.productsDirectory)/\(program)", "\(bin)/\(program)") == 0 else {
                throw FixtureError("cannot link \(program) into \(bin)")
            }
        }
        let layout = SystemdLayout(prefix: prefix)
        let files = try SystemdExport.files(for: suiteManifest(layout: layout), layout: layout)
        _ = try GeneratedFolder(path: directory.file("units")).replace(with: files) { _ in false }
        return files
    }

    /// The value of every `key=` line of `unit`, in order.
    static func values(_ key: String, in unit: String) -> [String] {
        unit.split(separator: "\n").compactMap { line in
            line.hasPrefix("\(key)=") ? String(line.dropFirst(key.count + 1)) : nil
        }
    }
}

/// A fixture that could not be set up.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
