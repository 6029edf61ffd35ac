/// Manifests for the parser tests (their parsing is the engine's, in SupervisorTests), and the
/// repository's root, which the tests that read its files share.
public enum ManifestFixture {
    /// The repository's root, from this file's place in it.
    public static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/")
        parts.removeLast(4) // Tests/Support/SharedTesting/ManifestFixture.swift
        return "/" + parts.joined(separator: "/")
    }()
}
