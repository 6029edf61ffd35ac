import Glibc
import Testing
import VerticalsScaffold
import VerticalsTesting
import VerticalsSharedTesting

/// Which framework `svc-supervisor init` depends on: its flags, else the release the framework's build
/// named (`make release FRAMEWORK_URL=… FRAMEWORK_VERSION=…`), else a refusal that says how to proceed.
@Suite(.blocking) struct InitFrameworkChoiceTests {
    static let none = FrameworkChoice(path: nil, url: nil, version: nil)

    func source(_ choice: FrameworkChoice, url: String = "", version: String = "") throws(ScaffoldError)
        -> FrameworkSource
    {
        try choice.source(builtInURL: url, builtInVersion: version, currentVersion: "0.1.0") { $0 }
    }

    @Test func noFlags_dependOnTheBuiltInRelease_atItsVersionOrThisOne() throws {
        let url = "https://example.com/team/Verticals.git"
        #expect(try source(Self.none, url: url, version: "2.3.4") == .url(url, version: "2.3.4"))
        #expect(try source(Self.none, url: url) == .url(url, version: "0.1.0"))
        let flags = FrameworkChoice(path: nil, url: "file:///tmp/v.git", version: "1.0.0")
        #expect(
            try source(flags, url: url, version: "2.3.4") == .url("file:///tmp/v.git", version: "1.0.0"),
            "flags come first")
        let path = FrameworkChoice(path: ManifestFixture.repositoryRoot, url: nil, version: nil)
        #expect(try source(path, url: url) == .path(ManifestFixture.repositoryRoot))
    }

    /// Between releases (`0.2.0-dev`) the build is no release: a URL needs a version, and the
    /// version must be a release no older than the one the templates need.
    @Test func betweenReleases_aURLNeedsAReleaseVersion_noOlderThanTheTemplatesNeed() throws {
        let url = "file:///srv/git/verticals.git"
        func choose(_ version: String?) throws(ScaffoldError) -> FrameworkSource {
            try FrameworkChoice(path: nil, url: url, version: version)
                .source(builtInURL: "", builtInVersion: "", currentVersion: "0.2.0-dev") { $0 }
        }
        #expect(try choose("0.2.0") == .url(url, version: "0.2.0"))
        #expect(try choose("1.0.0") == .url(url, version: "1.0.0"))
        let refused: [(String?, String)] = [
            (nil, "between releases"), ("0.1.0", "older than the templates need"),
            ("0.1.9", "pass --framework-version 0.2.0 or later"), ("0.2", "not a release"),
            ("0.2.0-dev", "not a release"),
        ]
        for (version, says) in refused {
            #expect("\(String(describing: version))") { try choose(version) } throws: { error in
                (error as? ScaffoldError)?.message.contains(says) == true
            }
        }
        // The built-in release of a `make release` build is held to the same rule.
        #expect(throws: ScaffoldError.self) {
            try Self.none.source(builtInURL: url, builtInVersion: "0.1.0", currentVersion: "0.2.0-dev") { $0 }
        }
    }

    @Test func noFlags_andNoBuiltInRelease_refuse_namingBothWays() {
        #expect {
            try source(Self.none)
        } throws: { error in
            let refusal = error as? ScaffoldError
            return refusal?.code == .checkout
                && refusal.map {
                    $0.message.contains("--framework-url URL --framework-version X.Y.Z")
                        && $0.message.contains("--framework-path DIR")
                } == true
        }
    }

    /// This test build names no release, so `init` with no framework flag refuses, with status 64, and writes nothing.
    @Test func initCommand_withNoFrameworkFlag_refusesWith64() throws {
        let directory = TemporaryDirectory()
        let product = directory.file("acme")
        let refused = try runCommand("svc-supervisor", ["init", product, "--skip-fixtures"], in: directory)
        #expect(refused.status == 64, "\(refused.standardOutput)\(refused.standardError)")
        #expect(
            refused.standardError.contains("--framework-url URL --framework-version X.Y.Z"), "\(refused.standardError)")
        #expect(refused.standardError.contains("--framework-path DIR"), "\(refused.standardError)")
        #expect(access(product, F_OK) != 0, "a refused init wrote something")
    }

    /// `make release FRAMEWORK_URL=… FRAMEWORK_VERSION=…` hands both to the C compiler that builds
    /// CFrameworkDefaults (shown with `make -n`, which builds nothing); without them, no such flag.
    @Test func makeRelease_passesTheReleaseToTheBuild() throws {
        let directory = TemporaryDirectory()
        let url = "https://example.com/team/Verticals.git"
        let named = try runCommand(
            "/usr/bin/make",
            ["-n", "-C", ManifestFixture.repositoryRoot, "release", "FRAMEWORK_URL=\(url)", "FRAMEWORK_VERSION=2.3.4"],
            in: directory)
        #expect(named.status == 0, "\(named.standardError)")
        let build = named.standardOutput.split(separator: "\n").first { $0.contains("build -c release") } ?? ""
        #expect(
            build.contains("-Xcc '-DVT_FRAMEWORK_URL=\"\(url)\"' -Xcc '-DVT_FRAMEWORK_VERSION=\"2.3.4\"'"), "\(build)")
        let plain = try runCommand(
            "/usr/bin/make", ["-n", "-C", ManifestFixture.repositoryRoot, "release"], in: directory)
        #expect(
            plain.status == 0 && plain.standardOutput.contains("build -c release")
                && !plain.standardOutput.contains("VT_FRAMEWORK"))
    }
}
