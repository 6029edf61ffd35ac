import Glibc

/// The environment of a newcomer who unpacked Swift at `/opt/swift` and never put it on `PATH`:
/// a product's Makefile must find it there itself (its `swift.mk`), as the framework's does.
enum SwiftOffPath {
    /// Where the Makefiles look when `swift` is not on `PATH`.
    static let fallbackFolder = "/opt/swift/usr/bin"

    /// `environment` with every folder that holds a `swift` taken off `PATH`; nil when this
    /// toolchain is not the one at ``fallbackFolder`` (a Makefile could then find no Swift at all).
    static func environment(_ environment: [String: String]) -> [String: String]? {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        guard folders.first(where: { isExecutable("\($0)/swift") }) == fallbackFolder else { return nil }
        var changed = environment
        changed["PATH"] = folders.filter { !isExecutable("\($0)/swift") }.joined(separator: ":")
        return changed
    }

    private static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
}
