/// The Verticals release this build is, in one place: what `svc-supervisor --version` and every
/// daemon's `--version` print, the tag of the image the Kubernetes export names, and the version
/// `svc-supervisor init --framework-url URL` depends on when no `--framework-version` is given.
/// In the contract core, below ServiceKit, so that the exports name it without the runtime.
///
/// It is CHANGELOG.md's latest release heading (`## X.Y.Z — DATE`, the first one under
/// "Unreleased"); a test compares the two. Changes since that release are listed under
/// "Unreleased" and carry this number until the next release moves both.
public enum VerticalsVersion {
    /// The release, `MAJOR.MINOR.PATCH` (the git tag is `v` and this).
    public static let current = "0.1.0"
}
