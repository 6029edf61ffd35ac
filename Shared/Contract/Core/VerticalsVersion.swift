/// The Verticals version this build is, in one place: what `svc-supervisor --version` and every
/// daemon's `--version` print, the tag of the image the Kubernetes export names, and the oldest
/// release `svc-supervisor init` lets a new product depend on.
/// In the contract core, below ServiceKit, so that the exports name it without the runtime.
///
/// A release build is `MAJOR.MINOR.PATCH`, CHANGELOG.md's latest release heading. Between
/// releases the build is the *next* release with a pre-release tag (`0.2.0-dev`): its changes
/// are listed under "Unreleased", and it never calls itself a release it is not.
/// `scripts/release-cut.sh` moves both at a release; a test compares them.
public enum VerticalsVersion {
    /// This build's version: a release `X.Y.Z`, or the next release and `-dev` between releases.
    public static let current = "0.3.0-dev"

    /// The release this build is, or will be: ``current`` without its pre-release tag. The
    /// templates `init` and `new` write use this build's API, so a product they make needs at
    /// least this release.
    public static var release: String { String(current.prefix { $0 != "-" }) }

    /// Whether this build is between releases (``current`` has a pre-release tag).
    public static var isPreRelease: Bool { current.contains("-") }

    /// The numbers of a release `X.Y.Z` (no pre-release tag), or nil when `text` is not one.
    public static func numbers(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let numbers = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            guard part == "0" || part.first != "0" else { return nil }
            return Int(part)
        }
        return numbers.count == 3 ? numbers : nil
    }
}
