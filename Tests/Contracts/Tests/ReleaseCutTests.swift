import Foundation
import Testing
import VerticalsContract
import VerticalsTesting

/// `scripts/release-cut.sh` in a clone of this checkout (its committed history): the CHANGELOG's
/// Unreleased changes dated under the release, the version set in its one place, the tag on that
/// commit, and the next version with `-dev` after it. Its checks (api-check, a product built from
/// the tag) are the ones `make test` runs elsewhere, so `--no-checks` here.
@Suite(.blocking) struct ReleaseCutTests {
    static let root = TrackerReferenceTests.repositoryRoot
    static let identity = [
        "GIT_AUTHOR_NAME": "Release Test", "GIT_AUTHOR_EMAIL": "release@localhost",
        "GIT_COMMITTER_NAME": "Release Test", "GIT_COMMITTER_EMAIL": "release@localhost",
    ]

    /// A clone of the repository, `clone` in a folder of its own.
    static func cloned() throws -> (directory: TemporaryDirectory, clone: String) {
        let directory = TemporaryDirectory()
        let clone = directory.file("clone")
        let cloned = try runCommand(
            "/usr/bin/git", ["clone", "--quiet", "--no-local", root, clone], in: directory, timeout: .seconds(120))
        try #require(cloned.status == 0, "\(cloned.standardError)")
        return (directory, clone)
    }

    func git(_ arguments: [String], in clone: String, _ directory: TemporaryDirectory) throws -> String {
        let result = try runCommand(
            "/usr/bin/git", ["-C", clone] + arguments, environment: Self.identity, in: directory)
        try #require(result.status == 0, "git \(arguments): \(result.standardError)")
        return result.standardOutput
    }

    func cut(_ arguments: [String], in clone: String, _ directory: TemporaryDirectory) throws -> CommandResult {
        try runCommand(
            "/bin/bash", ["\(clone)/scripts/release-cut.sh"] + arguments, environment: Self.identity, in: directory)
    }

    @Test func cut_datesTheChanges_setsTheVersion_tags_andStartsTheNext() throws {
        let (directory, clone) = try Self.cloned()
        let changelog = "\(clone)/CHANGELOG.md"
        let text = try #require(readFile(changelog))
        let last = try #require(OneVersionTests.latestRelease(inChangelog: text))
        // Something to release, even right after a cut, whose Unreleased section is empty.
        try #require(
            writeFile(
                text.replacingOccurrences(of: "## Unreleased\n", with: "## Unreleased\n\n### Added\n- A change.\n"),
                to: changelog))
        _ = try git(["commit", "--quiet", "-am", "A change to release"], in: clone, directory)
        let tags = try git(["tag", "--list"], in: clone, directory)

        let result = try cut(["99.0.0", "--date", "2031-02-03", "--no-checks"], in: clone, directory)
        try #require(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(try git(["tag", "--list"], in: clone, directory) == tags + "v99.0.0\n", "one tag more, the release's")

        let released = try git(["show", "v99.0.0:CHANGELOG.md"], in: clone, directory)
        #expect(
            released.contains("## Unreleased\n\n## 99.0.0 — 2031-02-03\n"), "the dated section where Unreleased was")
        #expect(OneVersionTests.latestRelease(inChangelog: released) == "99.0.0")
        #expect(released.contains("from: \"99.0.0\")"), "the dependency example names the release")
        #expect(released.contains("## \(last) — "), "the earlier releases stay")
        #expect(
            try git(["show", "v99.0.0:Shared/Contract/Core/VerticalsVersion.swift"], in: clone, directory)
                .contains("public static let current = \"99.0.0\""))
        #expect(
            try git(["show", "HEAD:Shared/Contract/Core/VerticalsVersion.swift"], in: clone, directory)
                .contains("public static let current = \"99.1.0-dev\""), "HEAD calls itself the next release")
        #expect(
            try git(["rev-parse", "v99.0.0^{commit}"], in: clone, directory)
                == git(["rev-parse", "HEAD~1"], in: clone, directory))
    }

    @Test func cut_refusesAnOlderVersion_aDirtyTree_andANonRelease_changingNothing() throws {
        let (directory, clone) = try Self.cloned()
        let head = try git(["rev-parse", "HEAD"], in: clone, directory)
        let tags = try git(["tag", "--list"], in: clone, directory)
        for (arguments, says) in [
            (["0.0.1"], "not later than the last release"), (["1.2"], "usage"), (["1.2.3-rc1"], "usage"),
        ] {
            let refused = try cut(arguments + ["--no-checks"], in: clone, directory)
            #expect(
                refused.status == 2 && refused.standardError.contains(says), "\(arguments): \(refused.standardError)")
        }
        _ = FileManager.default.createFile(atPath: "\(clone)/stray.txt", contents: Data("x".utf8))
        let dirty = try cut(["99.0.0", "--no-checks"], in: clone, directory)
        #expect(dirty.status == 2 && dirty.standardError.contains("work tree has changes"), "\(dirty.standardError)")
        #expect(try git(["rev-parse", "HEAD"], in: clone, directory) == head, "a refused cut commits nothing")
        #expect(try git(["tag", "--list"], in: clone, directory) == tags, "a refused cut tags nothing")
    }
}
