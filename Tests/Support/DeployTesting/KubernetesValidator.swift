import Testing
import Glibc
import VerticalsDeploy
import VerticalsSupervisorClient
import VerticalsTesting

/// `kubernetes-validate --strict` (PyPI; its schemas ship inside the package, so offline) for
/// ``KubernetesExport/kubernetesVersion``. `scripts/install-deps.sh --test` installs it into the
/// checkout's virtual environment (`.build/venv`, which `make test` puts first on `PATH`).
public enum KubernetesValidator {
    /// What one run said: its status, the lines saying an object passed, and every other line.
    public struct Report: Sendable {
        /// The validator's exit status.
        public let status: Int32
        /// Its "INFO … passed for resource …" lines, one per object.
        public let passed: [String]
        /// Every other line it printed.
        public let other: [String]
        /// Everything it printed.
        public let output: String
    }

    /// The validator's path: from `PATH`, else from the virtual environment of the checkout at `root`.
    public static func path(root: String) throws -> String {
        if let path = ToolLookup.which("kubernetes-validate") { return path }
        let installed = "\(root)/.build/venv/bin/kubernetes-validate"
        guard access(installed, X_OK) == 0 else {
            throw FixtureError(
                "kubernetes-validate is not installed: run scripts/install-deps.sh --test, which puts it in .build/venv "
                    + "(make test puts .build/venv/bin on PATH)")
        }
        return installed
    }

    /// Runs the validator (of the checkout at `root`) over the `.yaml` files of `folder`.
    public static func validate(_ folder: String, root: String, in directory: TemporaryDirectory) throws -> Report {
        let names = FolderEntries.names(in: folder).filter { $0.hasSuffix(".yaml") }.sorted()
        return try run(names.map { "\(folder)/\($0)" }, root: root, in: directory)
    }

    /// Runs the validator (of the checkout at `root`) over the `.yaml` files of `folder`, and
    /// expects every object to pass, `expected` of them, and nothing else said.
    public static func expectAllPass(
        _ folder: String, objects expected: Int, root: String, in directory: TemporaryDirectory
    ) throws {
        let report = try validate(folder, root: root, in: directory)
        #expect(report.status == 0, "kubernetes-validate failed:\n\(report.output)")
        #expect(
            report.other.isEmpty,
            "kubernetes-validate said more than 'passed':\n\(report.other.joined(separator: "\n"))")
        #expect(
            report.passed.count == expected,
            "\(report.passed.count) objects passed, \(expected) exported:\n\(report.output)")
    }

    /// Runs the validator (of the checkout at `root`) over `files`.
    public static func run(_ files: [String], root: String, in directory: TemporaryDirectory) throws -> Report {
        let result = try runCommand(
            try path(root: root), ["--strict", "-k", KubernetesExport.kubernetesVersion] + files,
            environment: ToolLookup.toolEnvironment, in: directory, timeout: .seconds(120))
        let output = result.standardOutput + result.standardError
        let lines = output.split(separator: "\n").map(String.init)
        let passes = { (line: String) in line.hasPrefix("INFO ") && line.contains(" passed for resource ") }
        return Report(
            status: result.status, passed: lines.filter(passes), other: lines.filter { !passes($0) }, output: output)
    }
}
