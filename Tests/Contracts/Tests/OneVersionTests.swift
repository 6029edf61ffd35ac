import Foundation
import Testing
import VerticalsContract
import VerticalsTesting

/// One version in one place: ``VerticalsVersion/current`` is CHANGELOG.md's latest release (or,
/// between releases, a later one with `-dev`), and what `svc-supervisor --version`, the Kubernetes
/// export and `init` say.
@Suite("One version", .blocking)
struct OneVersionTests {
    static let version = VerticalsVersion.current
    static let root = TrackerReferenceTests.repositoryRoot

    @Test func isSemanticVersion_aReleaseOrTheNextWithDev() {
        #expect(Self.version.wholeMatch(of: try! Regex("[0-9]+\\.[0-9]+\\.[0-9]+(-dev)?")) != nil, "\(Self.version)")
        #expect(VerticalsVersion.numbers(VerticalsVersion.release) != nil)
        #expect(VerticalsVersion.numbers("1.2.3") == [1, 2, 3])
        for bad in ["1.2", "1.2.3.4", "01.2.3", "1.2.x", "1..3", "1.2.3-dev", ""] {
            #expect(VerticalsVersion.numbers(bad) == nil, "\(bad)")
        }
    }

    /// A release build is the CHANGELOG's latest release; a build between releases is a later
    /// one. Either way the dependency example names a release that exists.
    @Test func isTheChangelogsLatestRelease_orLaterWhenBetweenReleases() throws {
        let changelog = try #require(readFile("\(Self.root)/CHANGELOG.md"))
        let release = try #require(
            OneVersionTests.latestRelease(inChangelog: changelog),
            "CHANGELOG.md has no `## X.Y.Z — YYYY-MM-DD` heading after `## Unreleased`")
        if VerticalsVersion.isPreRelease {
            let latest = try #require(VerticalsVersion.numbers(release))
            let next = try #require(VerticalsVersion.numbers(VerticalsVersion.release))
            #expect(latest.lexicographicallyPrecedes(next), "\(Self.version) is between releases, so after \(release)")
        } else {
            #expect(
                release == Self.version,
                "CHANGELOG.md's latest release is \(release); VerticalsVersion.current is \(Self.version)")
        }
        #expect(
            changelog.contains("from: \"\(release)\")"),
            "CHANGELOG.md's `.package(url:from:)` example should name \(release)")
        #expect(
            !changelog.contains("example.org/verticals"), "the repository's URL is a placeholder the reader fills in")
    }

    @Test func latestRelease_isTheFirstReleaseHeadingAfterUnreleased() {
        let text = "# Changelog\n\n## Unreleased\n### Added\n- x\n\n## 0.3.0 — 2026-12-01\n\n## 0.2.0 — 2026-11-30\n"
        #expect(OneVersionTests.latestRelease(inChangelog: text) == "0.3.0")
        #expect(OneVersionTests.latestRelease(inChangelog: "## Unreleased\n## Next\n## 0.2.0 — 2026-11-30\n") == nil)
        #expect(OneVersionTests.latestRelease(inChangelog: "## 0.2.0 — 2026-11-30\n") == nil)
    }

    @Test func isWhatSvcSupervisorVersionPrints() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", ["--version"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "svc-supervisor \(Self.version)\n")
    }

    /// The image every exported workload runs, and the one the Containerfile's instructions tag.
    @Test func tagsTheKubernetesExportsImage() throws {
        let directory = TemporaryDirectory()
        let out = directory.file("k8s")
        let exported = try runCommand(
            "svc-supervisor", ["export", "kubernetes", "--manifest", "\(Self.root)/deploy/suite.toml", "--out", out],
            in: directory)
        try #require(exported.status == 0, "\(exported.standardError)")
        let image = "localhost/verticals:\(Self.version)"
        var images: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: out).sorted() {
            for line in (readFile("\(out)/\(name)") ?? "").split(separator: "\n")
            where line.contains("localhost/verticals:") {
                images.append("\(name): \(line.trimmingCharacters(in: .whitespaces))")
                #expect(line.contains(image), "\(name): \(line)")
            }
        }
        #expect(images.count >= 6, "five workloads and the Containerfile name the image: \(images)")
    }

    /// A release build's `init` depends on itself; a build between releases names no release of
    /// its own and asks for one, no older than the release its templates need.
    @Test func isWhatInitDependsOn_orAsksForARelease_whenGivenOnlyAFrameworkURL() throws {
        let directory = TemporaryDirectory()
        let url = "file:///srv/git/verticals.git"
        let result = try runCommand(
            "svc-supervisor", ["init", directory.file("acme"), "--framework-url", url, "--dry-run"], in: directory)
        if VerticalsVersion.isPreRelease {
            #expect(result.status == 64, "\(result.standardOutput)")
            #expect(result.standardError.contains("between releases"), "\(result.standardError)")
            #expect(
                result.standardError.contains("--framework-version X.Y.Z (\(VerticalsVersion.release) or later)"),
                "\(result.standardError)")
        } else {
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("on \(url) from \(Self.version),"), "\(result.standardOutput)")
        }
        let named = try runCommand(
            "svc-supervisor",
            [
                "init", directory.file("acme"), "--framework-url", url, "--framework-version", VerticalsVersion.release,
                "--dry-run",
            ],
            in: directory)
        #expect(named.status == 0, "\(named.standardError)")
        #expect(named.standardOutput.contains("on \(url) from \(VerticalsVersion.release),"), "\(named.standardOutput)")
    }

    /// The version of the first `## X.Y.Z — DATE` heading after `## Unreleased`, if the heading
    /// right after it is one.
    static func latestRelease(inChangelog text: String) -> String? {
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }
        guard let unreleased = headings.firstIndex(of: "## Unreleased"), unreleased + 1 < headings.count else {
            return nil
        }
        let heading = try! Regex("## ([0-9]+\\.[0-9]+\\.[0-9]+) — [0-9]{4}-[0-9]{2}-[0-9]{2}")
        guard let match = headings[unreleased + 1].wholeMatch(of: heading) else { return nil }
        return match.output[1].substring.map(String.init)
    }
}
