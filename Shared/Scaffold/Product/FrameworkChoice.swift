import VerticalsContract

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
    ///
    /// Refuses half a choice, two choices, a path that is not a Verticals checkout, and no choice at
    /// all. A version must be a release `X.Y.Z` no older than `currentVersion`'s release (the
    /// templates use this build's API); a build between releases (`0.2.0-dev`) is no release to
    /// depend on, so with a URL it needs `--framework-version`.
    public func source(
        builtInURL: String, builtInVersion: String, currentVersion: String, absolute: (String) -> String
    ) throws(ScaffoldError) -> FrameworkSource {
        switch (path, url, version) {
        case (let path?, nil, nil):
            let checkout = absolute(path)
            guard case .path(let found)? = FrameworkSource.checkout(around: checkout), found == checkout else {
                throw .checkout(
                    "--framework-path \(path): not a Verticals checkout (its Package.swift is not the Verticals package)"
                )
            }
            return .path(checkout)
        case (nil, let url?, let version):
            return .url(url, version: try Self.release(version, current: currentVersion))
        case (nil, nil, nil):
            guard !builtInURL.isEmpty else {
                throw .checkout(
                    "no framework to depend on: pass --framework-url URL --framework-version X.Y.Z for a release,"
                        + " or --framework-path DIR for a local checkout (a build made with"
                        + " `make release FRAMEWORK_URL=URL FRAMEWORK_VERSION=X.Y.Z` uses that release when given neither)"
                )
            }
            return .url(
                builtInURL,
                version: try Self.release(builtInVersion.isEmpty ? nil : builtInVersion, current: currentVersion))
        default:
            throw .checkout("give either --framework-path DIR, or --framework-url URL [--framework-version X.Y.Z]")
        }
    }

    /// The release a product depends on: `version`, else `current` when that is a release; refused
    /// when it is no release `X.Y.Z`, or older than the release `current` is or will be.
    static func release(_ version: String?, current: String) throws(ScaffoldError) -> String {
        let needed = String(current.prefix { $0 != "-" })
        guard let version else {
            guard !current.contains("-") else {
                throw .checkout(
                    "this svc-supervisor is \(current), between releases, so it names no release to depend on:"
                        + " pass --framework-version X.Y.Z (\(needed) or later), or --framework-path DIR for a checkout"
                )
            }
            return current
        }
        guard let given = VerticalsVersion.numbers(version) else {
            throw .checkout("--framework-version \(version): not a release (X.Y.Z, as its tag vX.Y.Z names it)")
        }
        if let oldest = VerticalsVersion.numbers(needed), given.lexicographicallyPrecedes(oldest) {
            throw .checkout(
                "--framework-version \(version) is older than the templates need: the product this writes uses the API of"
                    + " \(needed); pass --framework-version \(needed) or later")
        }
        return version
    }
}
