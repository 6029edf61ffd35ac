import FoundationEssentials

/// `svc-supervisor new`: everything a new vertical needs in a product, planned in memory,
/// checked, then written together — or, on any refusal or failure, nothing at all.
///
/// It creates the contract in the product's contracts module (``ProductLayout``: IOInterface in
/// this repository), `Services/<Name>/` (Domain, Data with a first migration, Endpoint, World,
/// `main.swift`), unit tests, and adds the vertical to Package.swift, to `Contracts.all` when the
/// product keeps that list by hand, and to `deploy/suite.toml`. Extra outputs (contract fixtures,
/// systemd units) are added by the caller from ``plannedFiles``.
public struct Scaffold: Sendable {
    /// The vertical to create.
    public let vertical: VerticalName
    /// The verticals it calls (its `depends_on`).
    public let calls: [VerticalName]
    /// The product's root folder (where Package.swift is).
    public let root: String
    /// Where the product keeps its contracts module, contract list and tool.
    public let layout: ProductLayout
    /// New files, by path relative to ``root``.
    public private(set) var newFiles: [(path: String, contents: String)] = []
    /// Existing files with their new contents, by relative path.
    public private(set) var editedFiles: [(path: String, contents: String)] = []

    /// The manifest's path relative to the root.
    public static let manifestPath = ProductLayout.manifestPath
    static let packagePath = ProductLayout.packagePath

    /// Plans `name` in the product at `root`; throws, changing nothing, when the name is
    /// invalid or taken (in a product: a target of the framework's package too, ``FrameworkTargets``),
    /// a peer is unknown, or the folder is not a product.
    public init(name: String, calls: [String], root: String) throws(ScaffoldError) {
        try self.init(name: name, calls: calls, layout: try ProductLayout.read(root: root))
    }

    /// Plans `name` in the product `layout` describes.
    public init(name: String, calls: [String], layout: ProductLayout) throws(ScaffoldError) {
        let vertical = try VerticalName(name)
        self.vertical = vertical
        self.layout = layout
        let root = layout.root
        self.root = root
        let package = try Self.read(root, Self.packagePath)
        // A generated `Contracts.all` lists the new contract by itself.
        let contracts = layout.generatesContractList ? nil : try Self.read(root, layout.contractsPath)
        let manifest = try Self.read(root, Self.manifestPath)
        // The codec examples are optional: a product made by `init` checks its bytes with golden fixtures alone.
        let examples = Self.exists(root, layout.examplesPath) ? try Self.read(root, layout.examplesPath) : nil

        // In a product, the framework's package is in the same graph: its target names are taken.
        if !package.contains(ProductLayout.frameworkPackageMarker) {
            try FrameworkTargets.read(checkout: try FrameworkTargets.checkout(ofProduct: root)).refuse(
                clashesOf: vertical)
        }

        let services = Self.manifestServices(manifest)
        var peers: [VerticalName] = []
        for peer in calls where !peers.contains(where: { $0.name == peer }) {
            guard services.contains(peer), peer != name else { throw .unknownPeer(peer, known: services) }
            peers.append(try VerticalName(peer))
        }
        self.calls = peers

        let v = vertical
        let example = "Tests/\(layout.interfaceModule)Tests/Fixtures+\(v.typeName).swift"
        let folders = [
            "Services/\(v.typeName)", "\(layout.interfaceFolder)/Verticals/\(v.typeName)",
            "Tests/Services/\(v.typeName)Tests",
        ]
        let taken =
            folders.filter { Self.exists(root, $0) }
            + (services.contains(v.name) ? ["[services.\(v.name)] in \(Self.manifestPath)"] : [])
            + (package.contains("vertical(\"\(v.typeName)\"") ? ["vertical(\"\(v.typeName)\") in Package.swift"] : [])
            + (examples != nil && Self.exists(root, example) ? [example] : [])
        guard taken.isEmpty else { throw .exists(v.name, at: taken) }

        newFiles = Self.files(
            of: v, calls: peers, interface: layout.interfaceModule, interfaceFolder: layout.interfaceFolder,
            examples: examples != nil)
        editedFiles = [(Self.packagePath, try CheckoutEdits.package(package, adding: v))]
        if let contracts {
            editedFiles.append(
                (layout.contractsPath, try CheckoutEdits.contracts(contracts, adding: v, in: layout.contractsPath)))
        }
        if let examples {
            editedFiles.append(
                (layout.examplesPath, try CheckoutEdits.examples(examples, adding: v, in: layout.examplesPath)))
        }
        editedFiles.append((Self.manifestPath, CheckoutEdits.manifest(manifest, adding: v, calls: peers)))
    }

    /// The files of vertical `v` that calls `calls`, its contract in module `interface` (in folder
    /// `interfaceFolder`, `Shared/<interface>` unless given): what `new` adds to a product and `init`
    /// puts in a new one. `examples`: the product has codec examples
    /// (`Tests/<interface>Tests/Fixtures.swift`) to add the vertical's to.
    static func files(
        of v: VerticalName, calls: [VerticalName], interface: String, interfaceFolder: String? = nil, examples: Bool
    ) -> [(path: String, contents: String)] {
        let contract = "\(interfaceFolder ?? "Shared/\(interface)")/Verticals/\(v.typeName)"
        let service = "Services/\(v.typeName)"
        let files: [(String, Template)] =
            [
                ("\(contract)/\(v.typeName).swift", .contract),
                ("\(contract)/\(v.name).vcontract", .messages),
                ("\(service)/Sources/World.swift", .world),
                ("\(service)/Sources/Domain/Models/\(v.typeName)Failure.swift", .failure),
                ("\(service)/Sources/Domain/Models/Greeting.swift", .model),
                ("\(service)/Sources/Domain/UseCases/Greet.swift", .useCase),
                ("\(service)/Sources/Data/Migrations.swift", .migrations),
                ("\(service)/Sources/Data/GreetingRepository.swift", .repository),
                ("\(service)/Sources/Endpoint/Endpoint.swift", .endpoint),
                ("\(service)/Sources/Endpoint/\(v.typeName)Failure+ServiceError.swift", .serviceError),
                ("\(service)/main/main.swift", .main),
                ("Tests/Services/\(v.typeName)Tests/Fixtures.swift", .testFixtures),
                ("Tests/Services/\(v.typeName)Tests/HelloTests.swift", .helloTests),
            ] + (examples ? [("Tests/\(interface)Tests/Fixtures+\(v.typeName).swift", .examples)] : [])
        let values = Template.values(of: v, calls: calls, interface: interface)
        return files.map { path, template in (path, template.render(values)) }
    }

    /// The manifest's text as it will be once applied.
    public var plannedManifest: String {
        editedFiles.first { $0.path == Self.manifestPath }!.contents
    }

    /// Every path the scaffold writes, new files first.
    public var plannedFiles: [String] { newFiles.map(\.path) + editedFiles.map(\.path) }

    /// Adds a generated file (e.g. a systemd unit): created, or replaced when it exists.
    public mutating func add(path: String, contents: String) {
        if Self.exists(root, path) {
            editedFiles.removeAll { $0.path == path }
            editedFiles.append((path, contents))
        } else {
            newFiles.removeAll { $0.path == path }
            newFiles.append((path, contents))
        }
    }

    /// Writes every planned file. On a failure, puts back what was already written and throws.
    public func apply() throws(ScaffoldError) {
        try Self.write(newFiles: newFiles, editedFiles: editedFiles, root: root)
    }

    /// Writes `newFiles` and `editedFiles` under `root`, creating folders as needed (`root` too).
    /// On a failure, removes what it created, puts back what it replaced, and throws.
    static func write(
        newFiles: [(path: String, contents: String)], editedFiles: [(path: String, contents: String)], root: String
    ) throws(ScaffoldError) {
        var created: [String] = []
        var createdDirectories: [String] = []
        var originals: [(String, Data)] = []
        do {
            for file in editedFiles {
                let url = URL(fileURLWithPath: "\(root)/\(file.path)")
                originals.append((file.path, try Data(contentsOf: url)))
            }
            for file in newFiles {
                let directory = URL(fileURLWithPath: "\(root)/\(file.path)").deletingLastPathComponent().path
                var missing: [String] = []
                var cursor = directory
                while !FileManager.default.fileExists(atPath: cursor) {
                    missing.append(cursor)
                    cursor = URL(fileURLWithPath: cursor).deletingLastPathComponent().path
                }
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                createdDirectories += missing
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: "\(root)/\(file.path)"), options: .atomic)
                created.append(file.path)
            }
            for file in editedFiles {
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: "\(root)/\(file.path)"), options: .atomic)
            }
        } catch {
            for path in created { try? FileManager.default.removeItem(atPath: "\(root)/\(path)") }
            for directory in createdDirectories.sorted(by: { $0.count > $1.count }) {
                try? FileManager.default.removeItem(atPath: directory)
            }
            for (path, data) in originals {
                try? data.write(to: URL(fileURLWithPath: "\(root)/\(path)"), options: .atomic)
            }
            throw .write(path: root, reason: "\(error)")
        }
    }

    /// The `[services.NAME]` names in a manifest's text, in order.
    static func manifestServices(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingLeadingSpaces()
            guard trimmed.hasPrefix("[services."), let close = trimmed.firstIndex(of: "]") else { return nil }
            return String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)..<close])
        }
    }

    static func read(_ root: String, _ path: String) throws(ScaffoldError) -> String {
        guard let data = FileManager.default.contents(atPath: "\(root)/\(path)") else {
            throw .checkout("\(root) is not a Verticals product: it has no readable \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func exists(_ root: String, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(root)/\(path)")
    }

    /// The product around `directory`: the nearest folder up with Package.swift and the manifest.
    public static func findRoot(from directory: String) -> String? {
        var cursor = URL(fileURLWithPath: directory).standardizedFileURL.path
        while true {
            if exists(cursor, packagePath) && exists(cursor, manifestPath) { return cursor }
            let parent = URL(fileURLWithPath: cursor).deletingLastPathComponent().path
            if parent == cursor { return nil }
            cursor = parent
        }
    }
}
