import FoundationEssentials
import VerticalsWire

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

extension FrameworkSource {
    /// Refuses a source whose location the product's files cannot carry as it is: its identity
    /// names the package in Package.swift and a folder in the Makefile, and a path is a Makefile
    /// value that recipes hand to a shell, where `$`, a quote, `#` or a line break would be read
    /// as code. So the identity must be `[a-z0-9._-]` (after SwiftPM lowers its case), a path
    /// letters, digits and `/._+@-`, and a URL one line.
    public func check() throws(ScaffoldError) {
        let identity = identity
        guard !identity.isEmpty, !identity.hasPrefix("."), identity.unicodeScalars.allSatisfy(Self.isIdentityScalar)
        else {
            throw .checkout(
                "the framework's package identity \(swiftLiteral(identity)) (the last part of its path or URL) must be"
                    + " letters, digits and . _ -: the product's Package.swift and Makefile name it")
        }
        switch self {
        case .path(let path):
            if let bad = path.unicodeScalars.first(where: { !Self.isPathScalar($0) }) {
                throw .checkout(
                    "the framework path \(swiftLiteral(path)) holds \(swiftLiteral(String(bad))), which the product's"
                        + " Makefile would hand to make and a shell as code: use a checkout whose path is letters,"
                        + " digits and / . _ + @ -")
            }
        case .url(let url, _):
            guard !url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .checkout("the framework URL \(swiftLiteral(url)) holds a control character")
            }
        }
    }

    private static func isIdentityScalar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "." || c == "_" || c == "-"
    }

    private static func isPathScalar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
            || "/._+@-".unicodeScalars.contains(c)
    }
}

/// `text` as a Swift string literal: a backslash, a quote and every control character escaped, so
/// any text stays one literal on one line.
func swiftLiteral(_ text: String) -> String {
    doubleQuoted(text) { scalar in
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
            ? "\\u{\(String(scalar.value, radix: 16))}" : nil
    }
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
