import FoundationEssentials

/// Where a product gets the Verticals framework: a local checkout, or a git URL and a version.
public enum FrameworkSource: Sendable, Equatable {
    /// `.package(path:)` to a checkout (absolute path).
    case path(String)
    /// `.package(url:from:)`.
    case url(String, version: String)

    /// The package's identity, as SwiftPM names it in `.product(name:package:)`: the last part of
    /// the path or URL, without `.git`, in lower case.
    public var identity: String {
        let location: String
        switch self {
        case .path(let path): location = path
        case .url(let url, _): location = url
        }
        var last = location.split(separator: "/").last.map(String.init) ?? location
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.lowercased()
    }

    /// The dependency as Package.swift states it.
    var declaration: String {
        switch self {
        case .path(let path): ".package(path: \(swiftLiteral(path)))"
        case .url(let url, let version): ".package(url: \(swiftLiteral(url)), from: \(swiftLiteral(version)))"
        }
    }
}

/// `text` as a Swift string literal.
func swiftLiteral(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
}

extension FrameworkSource {
    /// The framework checkout holding `directory` (e.g. the `.build/debug` folder of the running
    /// svc-supervisor): the nearest folder up whose Package.swift is the `Verticals` package.
    public static func checkout(around directory: String) -> FrameworkSource? {
        var cursor = URL(fileURLWithPath: directory).standardizedFileURL.path
        while true {
            if FrameworkTargets.isFramework(cursor) { return .path(cursor) }
            let parent = URL(fileURLWithPath: cursor).deletingLastPathComponent().path
            if parent == cursor { return nil }
            cursor = parent
        }
    }
}
