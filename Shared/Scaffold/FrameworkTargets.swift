import FoundationEssentials
import Glibc

/// The target names of the framework's package, read from a checkout of it: a product's targets
/// share one package graph with them, and SwiftPM needs every target name in a graph to be unique,
/// so a product's vertical may not declare one of them.
///
/// They are read with `swift package dump-package`, which evaluates the checkout's Package.swift
/// without resolving or fetching anything (offline, a second or two), and sees the targets a helper
/// function declares as SwiftPM does, which reading the manifest's text would not.
public struct FrameworkTargets: Sendable, Equatable {
    /// The checkout they were read from.
    public let checkout: String
    /// Every target name of its package.
    public let names: Set<String>

    /// Target names from their parts (``read(checkout:)`` reads them from a checkout).
    public init(checkout: String, names: Set<String>) {
        self.checkout = checkout
        self.names = names
    }

    /// Reads the target names of the package at `checkout` with `swift package dump-package`, in a
    /// scratch folder of its own (the checkout's `.build` may be locked by a build that is running).
    ///
    /// SwiftPM's answer is its exit status and the JSON on its standard output. What it says on
    /// standard error does not change that answer (it warns, for one, when the home folder's caches
    /// cannot be written, as in a read-only home), so standard error is kept apart and shown only
    /// when there is no answer.
    public static func read(checkout: String) throws(ScaffoldError) -> FrameworkTargets {
        var template = Array("/tmp/vt-dump.XXXXXX".utf8CString)
        guard let scratch = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw .checkout(
                "could not make a scratch folder in /tmp to read \(checkout)/Package.swift (errno \(errno))")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let errors = "\(scratch)/stderr"
        let command =
            SwiftToolchain.shellPrefix
            + "cd \(shellQuoted(checkout)) && swift package --scratch-path \(shellQuoted("\(scratch)/build"))"
            + " dump-package 2>\(shellQuoted(errors))"
        guard let pipe = popen(command, "r") else {
            throw .checkout("could not run swift package dump-package in \(checkout) (errno \(errno))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count == 0 { break }
            output += buffer[..<count]
        }
        let waited = pclose(pipe)
        let status = waited & 0x7f == 0 ? (waited >> 8) & 0xff : 128 + waited & 0x7f
        // The shell's 127: no `swift` on PATH, nor at /opt/swift.
        guard status != 127 else {
            throw .checkout(
                "could not run `swift` to read the framework's targets in \(checkout) (swift package dump-package): "
                    + SwiftToolchain.advice)
        }
        struct Dump: Decodable {
            struct Named: Decodable { let name: String }
            let targets: [Named]
        }
        guard status == 0, let dump = try? JSONDecoder().decode(Dump.self, from: Data(output)) else {
            let said =
                status == 0
                ? "it printed no package description: " + String(decoding: output.prefix(400), as: UTF8.self)
                // Its last lines: the error comes after any warnings.
                : String(decoding: (FileManager.default.contents(atPath: errors) ?? Data()).suffix(400), as: UTF8.self)
            throw .checkout(
                "could not read the framework's targets in \(checkout) with swift package dump-package (status \(status)): "
                    + said)
        }
        return FrameworkTargets(checkout: checkout, names: Set(dump.targets.map(\.name)))
    }

    /// Refuses `vertical` when one of the targets it adds to a product is a target of the framework's package.
    public func refuse(clashesOf vertical: VerticalName) throws(ScaffoldError) {
        let clashing = vertical.targets.filter(names.contains)
        guard let first = clashing.first else { return }
        throw .invalidName(
            vertical.name,
            reason: "its target \(first) is also a target of the Verticals package at \(checkout), and SwiftPM needs"
                + " unique target names in one package graph: choose another name")
    }

    /// The framework checkout the product at `root` depends on: the folder of its `.package(path:)`
    /// whose Package.swift is the Verticals package, else SwiftPM's copy under `.build/checkouts`
    /// (there once the product was resolved or built).
    public static func checkout(ofProduct root: String) throws(ScaffoldError) -> String {
        let package = try Scaffold.read(root, ProductLayout.packagePath)
        let paths = package.split(separator: ".package(path: \"").dropFirst().compactMap { rest in
            rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }.map { $0.hasPrefix("/") ? $0 : "\(root)/\($0)" }
        let checkouts = ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/.build/checkouts")) ?? [])
            .sorted().map { "\(root)/.build/checkouts/\($0)" }
        for candidate in paths + checkouts where isFramework(candidate) { return candidate }
        throw .checkout(
            "\(root) names no Verticals checkout to read the framework's targets from (no .package(path:) to one, and"
                + " none under .build/checkouts): run `swift package resolve` in \(root), then try again")
    }

    /// Whether `folder` holds the Verticals package.
    static func isFramework(_ folder: String) -> Bool {
        FileManager.default.contents(atPath: "\(folder)/\(ProductLayout.packagePath)")
            .map { String(decoding: $0, as: UTF8.self).contains(ProductLayout.frameworkPackageMarker) } ?? false
    }
}

/// `text` quoted for `/bin/sh`.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
}
