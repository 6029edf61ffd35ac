import Glibc
import Testing

/// `swift build` of a whole package from a test (a product `init` made, a checkout `new` grew),
/// with the checks every such test makes: the build succeeds and prints no warning of ours.
public enum PackageBuild {
    /// Jobs for such a build: `VT_BUILD_JOBS`, else 1. `scripts/run-tests.sh` runs these tests
    /// last and alone, and gives them every core; run beside other suites (a plain `swift test`),
    /// one job keeps them from starving the process tests that time their answers.
    public static var jobs: Int {
        guard let value = getenv("VT_BUILD_JOBS"), let jobs = Int(String(cString: value)), jobs > 0 else { return 1 }
        return jobs
    }

    /// What `swift build` needs from this process's environment: the toolchain on PATH, a HOME for its caches.
    public static var toolchainEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for key in ["PATH", "HOME", "XDG_CACHE_HOME", "TMPDIR"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return environment
    }

    /// ``toolchainEnvironment`` with `TMPDIR` in `directory`: SwiftPM leaves folders named
    /// `TemporaryDirectory.*` in `TMPDIR` at every build (about six), which go with the test's folder.
    public static func environment(in directory: TemporaryDirectory) -> [String: String] {
        let temporary = directory.file("tmp")
        mkdir(temporary, 0o700)
        var environment = toolchainEnvironment
        environment["TMPDIR"] = temporary
        return environment
    }

    /// `swift build -j <jobs> <arguments>` in `package`, its log in `log`. Returns the warnings it
    /// printed and the log's tail; `status` is the build's. swift-distributed-tracing 1.7.3 keeps a
    /// CMakeLists.txt in its targets, which SwiftPM warns about in every build that uses it: the
    /// dependency's packaging, not a warning of ours, so that line alone is let pass.
    public static func run(
        _ arguments: String, in package: String, log: String, from directory: TemporaryDirectory,
        timeout: Duration = .seconds(1500)
    ) throws -> CommandResult {
        let tracingWarning = "^warning: 'swift-distributed-tracing'"
        return try runCommand(
            "/bin/sh",
            [
                "-c",
                "cd \(package) && swift build -j \(jobs) \(arguments) > \(log) 2>&1; status=$?; "
                    + "grep warning: \(log) | grep -v \"\(tracingWarning): found\"; tail -5 \(log) | grep -v \"\(tracingWarning)\"; exit $status",
            ],
            environment: environment(in: directory), in: directory, timeout: timeout)
    }
}
