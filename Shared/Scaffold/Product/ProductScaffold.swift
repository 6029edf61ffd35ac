import FoundationEssentials

/// `svc-supervisor init`: a new product as its own Swift package, laid out like the Verticals
/// repository and depending on the framework — planned in memory, then written into an empty
/// (or new) folder together, or, on any refusal or failure, nothing at all.
///
/// It holds Package.swift (framework products only, plus GRDB for the verticals' Data layers),
/// its contracts module `Shared/<Product>Interface` (whose `Contracts.all` VerticalsContractListPlugin
/// generates), one vertical made as `new` makes one (``Scaffold``), its contract tool and contract tests (`Tests/Contracts`),
/// `deploy/suite.toml`, a Makefile (and its `swift.mk`), `.ci/run`, a README, a `.gitignore` and a `.containerignore`.
/// The lock and golden fixtures are written afterwards by the product's own contract tool (the caller runs it).
public struct ProductScaffold: Sendable {
    /// The product.
    public let product: ProductName
    /// Its first vertical.
    public let vertical: VerticalName
    /// Where it gets the framework.
    public let framework: FrameworkSource
    /// The folder it is written to.
    public let root: String
    /// Every file, by path relative to ``root``.
    public let files: [(path: String, contents: String)]

    /// Plans product `name` at `root` with one vertical, `vertical`; throws, writing nothing, when
    /// a name is invalid, `framework`'s location is one the product's files cannot carry
    /// (``FrameworkSource/check()``), a target of the vertical is one of `frameworkTargets` (the framework's
    /// package's, read from the checkout the product will depend on), or `root` exists and is not
    /// an empty folder.
    public init(
        root: String, name: String, vertical: String, framework: FrameworkSource, frameworkTargets: FrameworkTargets
    ) throws(ScaffoldError) {
        let product = try ProductName(name)
        let v = try VerticalName(vertical)
        try framework.check()
        try frameworkTargets.refuse(clashesOf: v)
        try Self.checkEmpty(root)
        self.product = product
        self.vertical = v
        self.framework = framework
        self.root = root
        let interface = product.interfaceModule
        let values = Template.values(of: product, framework: framework, vertical: v)
        let files: [(String, Template)] = [
            ("Package.swift", .package),
            ("Tests/Contracts/Tool/main.swift", .contractsTool),
            ("Tests/Contracts/Tests/ContractGuardTests.swift", .contractTests),
            ("Makefile", .makefile),
            ("swift.mk", .swiftMakefile),
            (".ci/run", .ci),
            ("README.md", .readme),
            (".gitignore", .gitignore),
            (".containerignore", .containerignore),
        ]
        self.files =
            files.map { path, template in (path, template.render(values)) }
            + [("deploy/suite.toml", CheckoutEdits.manifest(Template.manifest.render(values), adding: v, calls: []))]
            + Scaffold.files(of: v, calls: [], interface: interface, examples: false)
    }

    /// Refuses `root` when it exists and is not an empty folder (a file, or a folder that cannot be
    /// listed, counts as not empty): a product is made in an empty or new folder.
    public static func checkEmpty(_ root: String) throws(ScaffoldError) {
        guard FileManager.default.fileExists(atPath: root) else { return }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? ["(not a readable folder)"]
        guard entries.isEmpty else { throw .notEmpty(root, holding: entries.sorted()) }
    }

    /// Every path it writes.
    public var plannedFiles: [String] { files.map(\.path) }

    /// Writes every file (and `.ci/run` executable). On a failure, removes what it wrote and throws.
    public func apply() throws(ScaffoldError) {
        try Scaffold.write(newFiles: files, editedFiles: [], root: root)
        do {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(root)/.ci/run")
        } catch {
            throw .write(path: "\(root)/.ci/run", reason: "\(error)")
        }
    }
}
