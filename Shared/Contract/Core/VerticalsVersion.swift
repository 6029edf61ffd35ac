/// The Verticals release this build is, in one place: what `svc-supervisor --version` and every
/// daemon's `--version` print, and the tag of the image the Kubernetes export names. In the
/// contract core, below ServiceKit, so that the exports name it without the runtime.
public enum VerticalsVersion {
    /// The release, `MAJOR.MINOR.PATCH` (the git tag is `v` and this).
    public static let current = "0.11.0"
}
