import Glibc
import Testing
import VerticalsTesting
import VerticalsSharedTesting

/// scripts/release-clone.sh: a bare repository with one commit of this checkout tagged as a release,
/// what `init`'s product test depends on by URL and `make api-check` compares against without a tag.
@Suite(.blocking, .timeLimit(.minutes(2)))
struct ReleaseCloneTests {
    func script(_ arguments: [String], in directory: TemporaryDirectory) throws -> CommandResult {
        try runCommand(
            "/bin/bash", ["\(ManifestFixture.repositoryRoot)/scripts/release-clone.sh"] + arguments,
            environment: PackageBuild.toolchainEnvironment, in: directory, timeout: .seconds(60))
    }

    func git(_ arguments: String, in directory: TemporaryDirectory) throws -> String {
        try runCommand(
            "/bin/sh", ["-c", "git \(arguments)"], environment: PackageBuild.toolchainEnvironment, in: directory
        )
        .standardOutput
    }

    @Test func tagsTheCommitItIsGiven_inABareRepositoryOfItsOwn() throws {
        let directory = TemporaryDirectory()
        let bare = directory.file("v.git")
        let made = try script([bare, "0.0.9", "HEAD~1"], in: directory)
        #expect(made.status == 0 && made.standardOutput == "v0.0.9\n", "\(made.standardError)")
        let tagged = try git("-C \(bare) rev-parse 'v0.0.9^{commit}'", in: directory)
        let expected = try git("-C \(ManifestFixture.repositoryRoot) rev-parse 'HEAD~1^{commit}'", in: directory)
        #expect(!tagged.isEmpty && tagged == expected, "v0.0.9 is \(tagged), HEAD~1 is \(expected)")
        #expect(
            try git("-C \(bare) tag", in: directory) == "v0.0.9\n", "only the release's tag, none of this checkout's")
    }

    @Test func refusesAFolderThatExists_aVersionThatIsNot_andACommitThatIsNot() throws {
        let directory = TemporaryDirectory()
        for (arguments, says) in [
            ([directory.path], "exists"),
            ([directory.file("a.git"), "1.2"], "'1.2' is not a version X.Y.Z"),
            ([directory.file("b.git"), "1.2.3", "no-such-ref"], "'no-such-ref' is not a commit"),
        ] {
            let refused = try script(arguments, in: directory)
            #expect(
                refused.status == 2 && refused.standardError.contains(says), "\(arguments): \(refused.standardError)")
        }
        #expect(
            access(directory.file("a.git"), F_OK) != 0 && access(directory.file("b.git"), F_OK) != 0,
            "a refusal made a folder")
    }
}
