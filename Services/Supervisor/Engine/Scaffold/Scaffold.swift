import FoundationEssentials

/// `svc-supervisor new`: everything a new vertical needs in a checkout, planned in memory,
/// checked, then written together — or, on any refusal or failure, nothing at all.
///
/// It creates the contract in IOInterface, `Services/<Name>/` (Domain, Data with a first
/// migration, Endpoint, World, `main.swift`), unit tests, and adds the vertical to Package.swift,
/// `Contracts.all` and `deploy/suite.toml`. Extra outputs (contract fixtures, systemd units)
/// are added by the caller from ``plannedFiles``.
public struct Scaffold: Sendable {
    /// The vertical to create.
    public let vertical: VerticalName
    /// The verticals it calls (its `depends_on`).
    public let calls: [VerticalName]
    /// The checkout's root folder (where Package.swift is).
    public let root: String
    /// New files, by path relative to ``root``.
    public private(set) var newFiles: [(path: String, contents: String)] = []
    /// Existing files with their new contents, by relative path.
    public private(set) var editedFiles: [(path: String, contents: String)] = []

    /// The manifest's path relative to the root.
    public static let manifestPath = "deploy/suite.toml"
    static let packagePath = "Package.swift"
    static let contractsPath = "Shared/IOInterface/Contracts.swift"
    static let examplesPath = "Tests/IOInterfaceTests/Fixtures.swift"

    /// Plans `name` in the checkout at `root`; throws, changing nothing, when the name is
    /// invalid or taken, a peer is unknown, or the checkout is not one.
    public init(name: String, calls: [String], root: String) throws(ScaffoldError) {
        let vertical = try VerticalName(name)
        self.vertical = vertical
        self.root = root
        let package = try Self.read(root, Self.packagePath)
        let contracts = try Self.read(root, Self.contractsPath)
        let manifest = try Self.read(root, Self.manifestPath)
        let examples = try Self.read(root, Self.examplesPath)

        let services = Self.manifestServices(manifest)
        var peers: [VerticalName] = []
        for peer in calls where !peers.contains(where: { $0.name == peer }) {
            guard services.contains(peer), peer != name else { throw .unknownPeer(peer, known: services) }
            peers.append(try VerticalName(peer))
        }
        self.calls = peers

        let v = vertical
        let taken = [
            "Services/\(v.typeName)", "Shared/IOInterface/Verticals/\(v.typeName)", "Tests/Services/\(v.typeName)Tests",
        ].filter { Self.exists(root, $0) }
            + (services.contains(v.name) ? ["[services.\(v.name)] in \(Self.manifestPath)"] : [])
            + (package.contains("vertical(\"\(v.typeName)\"") ? ["vertical(\"\(v.typeName)\") in Package.swift"] : [])
            + (Self.exists(root, "Tests/IOInterfaceTests/Fixtures+\(v.typeName).swift")
                ? ["Tests/IOInterfaceTests/Fixtures+\(v.typeName).swift"] : [])
        guard taken.isEmpty else { throw .exists(v.name, at: taken) }

        let contract = "Shared/IOInterface/Verticals/\(v.typeName)"
        let service = "Services/\(v.typeName)"
        newFiles = [
            ("\(contract)/\(v.typeName).swift", ContractTemplate.contract(v)),
            ("\(contract)/\(v.name).vcontract", ContractTemplate.messages(v)),
            ("\(service)/Sources/World.swift", ServiceTemplate.world(v, calls: peers)),
            ("\(service)/Sources/Domain/Models/\(v.typeName)Failure.swift", ServiceTemplate.failure(v)),
            ("\(service)/Sources/Domain/Models/Greeting.swift", ServiceTemplate.model(v)),
            ("\(service)/Sources/Domain/UseCases/Greet.swift", ServiceTemplate.useCase(v)),
            ("\(service)/Sources/Data/Migrations.swift", ServiceTemplate.migrations(v)),
            ("\(service)/Sources/Data/GreetingRepository.swift", ServiceTemplate.repository(v)),
            ("\(service)/Sources/Endpoint/Endpoint.swift", ServiceTemplate.endpoint(v)),
            ("\(service)/Sources/Endpoint/\(v.typeName)Failure+ServiceError.swift", ServiceTemplate.serviceError(v)),
            ("\(service)/main/main.swift", ServiceTemplate.main(v)),
            ("Tests/Services/\(v.typeName)Tests/Fixtures.swift", TestTemplate.fixtures(v)),
            ("Tests/Services/\(v.typeName)Tests/HelloTests.swift", TestTemplate.hello(v)),
            ("Tests/IOInterfaceTests/Fixtures+\(v.typeName).swift", TestTemplate.examples(v)),
        ]
        editedFiles = [
            (Self.packagePath, try CheckoutEdits.package(package, adding: v)),
            (Self.contractsPath, try CheckoutEdits.contracts(contracts, adding: v)),
            (Self.examplesPath, try CheckoutEdits.examples(examples, adding: v)),
            (Self.manifestPath, CheckoutEdits.manifest(manifest, adding: v, calls: peers)),
        ]
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
            throw .checkout("\(root) is not a Verticals checkout: it has no readable \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func exists(_ root: String, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(root)/\(path)")
    }

    /// The checkout around `directory`: the nearest folder up with Package.swift and the manifest.
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
