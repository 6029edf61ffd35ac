import FoundationEssentials

/// Where a product keeps what `svc-supervisor new` reads and edits, found by reading the product
/// rather than assumed: this repository (contracts module `IOInterface`, tool `vt-contracts`) and a
/// product made by `svc-supervisor init` (`<Product>Interface`, `<product>-contracts`) alike.
public struct ProductLayout: Sendable, Equatable {
    /// The product's root folder (where Package.swift is).
    public let root: String
    /// The module holding the contracts and `Contracts.all`, named for its folder.
    public let interfaceModule: String
    /// The contracts module's folder, relative to ``root``: `Shared/<module>` in a product made by
    /// `init`, `Shared/Example/IOInterface` in this repository.
    public let interfaceFolder: String
    /// The executable target of the contract tool (lock and golden fixtures), e.g. `vt-contracts`.
    public let contractsTool: String
    /// Whether `Contracts.all` is generated from the module's contract files
    /// (VerticalsContractListPlugin, as `init` makes a product), so that `new` edits no list; a
    /// product made before, and this repository, keep it by hand in `Contracts.swift`.
    public let generatesContractList: Bool

    /// The package manifest, relative to ``root``.
    public static let packagePath = "Package.swift"
    /// The suite manifest, relative to ``root``.
    public static let manifestPath = "deploy/suite.toml"
    /// What only the framework's own Package.swift says (its package's name).
    public static let frameworkPackageMarker = "name: \"Verticals\","
    /// What a Package.swift says when a contracts module's `Contracts.all` is generated.
    static let contractListPlugin = "VerticalsContractListPlugin"
    /// The line of `Contracts.swift` that opens the product's contract list.
    static let contractListMarker = "public static let all: [any ServiceContract.Type] = ["

    /// The file holding `Contracts.all`.
    public var contractsPath: String { "\(interfaceFolder)/Contracts.swift" }
    /// The codec examples every message goes through (`Tests/<module>Tests/Fixtures.swift`), when the product has them.
    public var examplesPath: String { "Tests/\(interfaceModule)Tests/Fixtures.swift" }

    /// Creates a layout from its parts (``read(root:)`` finds them in a product); the contracts
    /// module's folder defaults to `Shared/<module>`.
    public init(
        root: String, interfaceModule: String, interfaceFolder: String? = nil, contractsTool: String,
        generatesContractList: Bool = false
    ) {
        self.root = root
        self.interfaceModule = interfaceModule
        self.interfaceFolder = interfaceFolder ?? "Shared/\(interfaceModule)"
        self.contractsTool = contractsTool
        self.generatesContractList = generatesContractList
    }

    /// Reads the product at `root`: its contracts module is the folder of `Shared/` (or of a group
    /// folder inside it, such as `Shared/Example/`) whose `Contracts.swift` declares `Contracts.all`,
    /// or, when Package.swift applies VerticalsContractListPlugin, the one that holds a `Verticals/`
    /// folder; its contract tool, the executable of Package.swift named `…-contracts`.
    public static func read(root: String) throws(ScaffoldError) -> ProductLayout {
        let package = try Scaffold.read(root, packagePath)
        let folders = subfolders(of: "Shared", in: root).flatMap { [$0] + subfolders(of: $0, in: root) }
        let listed = folders.filter { folder in
            FileManager.default.contents(atPath: "\(root)/\(folder)/Contracts.swift")
                .map { String(decoding: $0, as: UTF8.self).contains(contractListMarker) } ?? false
        }
        let generates = package.contains(contractListPlugin)
        let modules =
            generates
            ? folders.filter { !listed.contains($0) && Scaffold.exists(root, "\($0)/Verticals") } + listed : listed
        guard modules.count == 1, let folder = modules.first else {
            throw .checkout(
                modules.isEmpty
                    ? "\(root) has no contracts module: no Shared/<Module>/Contracts.swift declares `\(contractListMarker)…]`"
                        + (generates ? ", and no Shared/<Module>/ holds a Verticals/ folder" : "")
                    : "\(root) has several contracts modules (\(modules.joined(separator: ", "))); keep `Contracts.all` in one"
            )
        }
        guard let tool = targetNames(in: package).first(where: { $0.hasSuffix("-contracts") }) else {
            throw .checkout("\(root)/Package.swift has no contract tool (an executable target named `…-contracts`)")
        }
        let module = String(folder[folder.index(after: folder.lastIndex(of: "/")!)...])
        return ProductLayout(
            root: root, interfaceModule: module, interfaceFolder: folder, contractsTool: tool,
            generatesContractList: !listed.contains(folder))
    }

    /// What `folder` (relative to `root`) holds, sorted, as paths relative to `root`; none when it
    /// is not a folder.
    static func subfolders(of folder: String, in root: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? []
        return names.sorted().map { "\(folder)/\($0)" }
    }

    /// Every `name: "…"` of a package manifest's text, in order.
    static func targetNames(in package: String) -> [String] {
        package.split(separator: "name: \"").dropFirst().compactMap { rest in
            rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
    }
}
