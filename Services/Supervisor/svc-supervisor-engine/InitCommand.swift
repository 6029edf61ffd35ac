import VerticalsSupervisorCommands
import ArgumentParser
import VerticalsScaffold
import VerticalsServiceKit
import VerticalsContract
import CFrameworkDefaults

/// `svc-supervisor init PATH`: a new product as its own Swift package on the Verticals framework,
/// laid out like this repository, with one vertical made as `new` makes one — or nothing written
/// and why. Then its own contract tool writes its lock and golden fixtures.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new product (its own Swift package) on the Verticals framework, with one vertical.",
        discussion: """
            Example:
              svc-supervisor init ~/acme --name Acme --vertical greeter \\
                --framework-url https://example.com/you/Verticals.git --framework-version 1.0.0
              cd ~/acme && make run
            PATH must be empty or not exist. The product depends on a framework release by
            --framework-url and --framework-version (default: this svc-supervisor's own version), or on
            a local checkout by --framework-path. Given neither, it depends on the release this
            svc-supervisor was built to name (make release FRAMEWORK_URL=URL FRAMEWORK_VERSION=X.Y.Z),
            and refuses when it names none. Exit status: 0 when created, 64 when refused (nothing
            written).
            """)

    @Argument(help: "The product's folder (empty or new).")
    var path: String

    @Option(name: .long, help: "The product's name: a letter, then letters or digits (default: PATH's last part).")
    var name: String?

    @Option(name: .long, help: "The framework checkout to depend on by path, for a local checkout.")
    var frameworkPath: String?

    @Option(
        name: .long, help: "The framework's git URL, to depend on by URL (a tagged release, see --framework-version).")
    var frameworkURL: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The framework's release for --framework-url (from: that version; at least \(VerticalsVersion.release)).",
            discussion: VerticalsVersion.isPreRelease
                ? "Required with --framework-url: this build (\(VerticalsVersion.current)) is between releases."
                : "Default: \(VerticalsVersion.current), this build's release."))
    var frameworkVersion: String?

    @Option(name: .long, help: "The first vertical's name.")
    var vertical = "greeter"

    @OptionGroup var writing: ScaffoldWriting

    func run() throws {
        try ScaffoldWriting.refusing {
            let root = Self.absolute(path)
            let product = name ?? String(root.split(separator: "/").last ?? "")
            // What is quick to refuse first: reading the framework's targets runs SwiftPM.
            _ = (try ProductName(product), try VerticalName(vertical))
            try ProductScaffold.checkEmpty(root)
            let framework = try framework()
            let scaffold = try ProductScaffold(
                root: root, name: product, vertical: vertical, framework: framework,
                frameworkTargets: try Self.targets(of: framework))
            try writing.write(
                scaffold.apply, report: { Self.report(scaffold, written: $0) }, root: root,
                tool: scaffold.product.contractsTool, what: scaffold.product.typeName)
        }
    }

    /// Where the product gets the framework: the flags, else the release this build was made to default to.
    func framework() throws(ScaffoldError) -> FrameworkSource {
        try FrameworkChoice(path: frameworkPath, url: frameworkURL, version: frameworkVersion).source(
            builtInURL: String(cString: vt_framework_default_url()),
            builtInVersion: String(cString: vt_framework_default_version()),
            currentVersion: VerticalsVersion.current, absolute: Self.absolute)
    }

    /// The framework's target names, which the product's vertical may not reuse: read from the checkout
    /// it depends on by path, or, for a URL, from the checkout this svc-supervisor was built from (the
    /// same framework, fetched by SwiftPM only later). Without either, SwiftPM reports a clash itself.
    static func targets(of framework: FrameworkSource) throws(ScaffoldError) -> FrameworkTargets {
        switch framework {
        case .path(let checkout):
            return try FrameworkTargets.read(checkout: checkout)
        case .url(let url, _):
            // Another version of the framework, maybe: its targets are a guide, and a clash SwiftPM reports anyway.
            let note =
                "; if the vertical's name is one of \(url)'s targets, SwiftPM says so when it resolves the product"
            guard case .path(let own)? = FrameworkSource.checkout(around: ProgramPaths.ownDirectory()) else {
                Terminal.error("note: no checkout of the framework is at hand to read its target names from\(note)")
                return FrameworkTargets(checkout: url, names: [])
            }
            do {
                return try FrameworkTargets.read(checkout: own)
            } catch {
                Terminal.error("note: \(error)\(note)")
                return FrameworkTargets(checkout: url, names: [])
            }
        }
    }

    static func report(_ scaffold: ProductScaffold, written: Bool) -> String {
        let v = scaffold.vertical
        let depending: String
        switch scaffold.framework {
        case .path(let path): depending = "the framework at \(path)"
        case .url(let url, let version): depending = "\(url) from \(version)"
        }
        return """
            \(written ? "created" : "would create") product \(scaffold.product) in \(scaffold.root), on \(depending), with vertical \(v.name):
            \(scaffold.plannedFiles.map { "  + \($0)" }.joined(separator: "\n"))
            next:
              cd \(scaffold.root)
              make run                         # builds, then starts \(v.executable) under svc-supervisor
              svc-supervisor call \(v.name) hello '{"name": "Ada"}'
              make test                        # its unit tests and contract guard
              svc-supervisor new billing       # another vertical
            """
    }

    /// `path` made absolute against the current folder, without `.` and `..` parts.
    static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : "\(ProgramPaths.currentDirectory())/\(path)"
        var parts: [Substring] = []
        for part in joined.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
