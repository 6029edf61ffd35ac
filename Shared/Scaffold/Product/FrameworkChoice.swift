/// Which framework `svc-supervisor init` makes a product depend on, from its flags and the release
/// the framework's build named (`make release FRAMEWORK_URL=URL FRAMEWORK_VERSION=X.Y.Z`).
public struct FrameworkChoice: Sendable, Equatable {
    /// `--framework-path`, as given.
    public var path: String?
    /// `--framework-url`.
    public var url: String?
    /// `--framework-version`.
    public var version: String?

    /// The flags as given, each nil when absent.
    public init(path: String?, url: String?, version: String?) {
        (self.path, self.url, self.version) = (path, url, version)
    }

    /// The source the flags name (a URL without a version at `currentVersion`), else the built-in
    /// release: `builtInURL` (empty when the build named none) at `builtInVersion`, or else at
    /// `currentVersion`. `absolute` makes a path absolute.
    /// Refuses half a choice, two choices, a path that is not a Verticals checkout, and no choice at all.
    public func source(
        builtInURL: String, builtInVersion: String, currentVersion: String, absolute: (String) -> String
    ) throws(ScaffoldError) -> FrameworkSource {
        switch (path, url, version) {
        case (let path?, nil, nil):
            let checkout = absolute(path)
            guard case .path(let found)? = FrameworkSource.checkout(around: checkout), found == checkout else {
                throw .checkout("--framework-path \(path): not a Verticals checkout (its Package.swift is not the Verticals package)")
            }
            return .path(checkout)
        case (nil, let url?, let version):
            return .url(url, version: version ?? currentVersion)
        case (nil, nil, nil):
            guard !builtInURL.isEmpty else {
                throw .checkout(
                    "no framework to depend on: pass --framework-url URL --framework-version X.Y.Z for a release,"
                        + " or --framework-path DIR for a local checkout (a build made with"
                        + " `make release FRAMEWORK_URL=URL FRAMEWORK_VERSION=X.Y.Z` uses that release when given neither)")
            }
            return .url(builtInURL, version: builtInVersion.isEmpty ? currentVersion : builtInVersion)
        default:
            throw .checkout("give either --framework-path DIR, or --framework-url URL [--framework-version X.Y.Z]")
        }
    }
}
