/// A file of `Shared/Scaffold/Templates/`: the text of a file `svc-supervisor new` or `init`
/// writes, with `{{key}}` where a name goes. The files are embedded in this module at build time
/// (VerticalsEmbedPlugin), so an installed engine carries them; change a template by editing its
/// file, which is a file of the product it makes, not a Swift string.
struct Template: Sendable, Hashable {
    /// Its path under `Templates/` without `.template`, e.g. `Vertical/World.swift`.
    let name: String

    init(_ name: String) {
        self.name = name
    }

    /// Its text as embedded; empty for a name with no file, which ``all``'s test refuses.
    var text: String { EmbeddedTemplates.texts[name] ?? "" }

    /// The text with each `{{key}}` replaced by `values[key]`, in one pass: a value is never read
    /// as a template. A key without a value stays as written; the tests render every template and
    /// refuse any left.
    func render(_ values: [String: String]) -> String {
        var out = ""
        var rest = text[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let key = String(rest[open.upperBound..<close.lowerBound])
            out += rest[..<open.lowerBound]
            out += values[key] ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}

extension Template {
    // MARK: A vertical (`new`, and `init`'s first one)

    /// `<contracts module>/Verticals/<Name>/<Name>.swift`: its contract, with one example operation.
    static let contract = Template("Vertical/Contract.swift")
    /// `<contracts module>/Verticals/<Name>/<name>.vcontract`: the example operation's messages.
    static let messages = Template("Vertical/Contract.vcontract")
    /// `Services/<Name>/Sources/World.swift`.
    static let world = Template("Vertical/World.swift")
    /// `Services/<Name>/Sources/Domain/Models/<Name>Failure.swift`.
    static let failure = Template("Vertical/Failure.swift")
    /// `Services/<Name>/Sources/Domain/Models/Greeting.swift`.
    static let model = Template("Vertical/Greeting.swift")
    /// `Services/<Name>/Sources/Domain/UseCases/Greet.swift`.
    static let useCase = Template("Vertical/Greet.swift")
    /// `Services/<Name>/Sources/Data/Migrations.swift`.
    static let migrations = Template("Vertical/Migrations.swift")
    /// `Services/<Name>/Sources/Data/GreetingRepository.swift`.
    static let repository = Template("Vertical/GreetingRepository.swift")
    /// `Services/<Name>/Sources/Endpoint/Endpoint.swift`.
    static let endpoint = Template("Vertical/Endpoint.swift")
    /// `Services/<Name>/Sources/Endpoint/<Name>Failure+ServiceError.swift`.
    static let serviceError = Template("Vertical/Failure+ServiceError.swift")
    /// `Services/<Name>/main/main.swift`: the daemon.
    static let main = Template("Vertical/main.swift")
    /// `Tests/Services/<Name>Tests/Fixtures.swift`: the test World.
    static let testFixtures = Template("Vertical/TestFixtures.swift")
    /// `Tests/Services/<Name>Tests/HelloTests.swift`.
    static let helloTests = Template("Vertical/HelloTests.swift")
    /// `Tests/<Interface>Tests/Fixtures+<Name>.swift`: codec examples of its messages, in a product that has them.
    static let examples = Template("Vertical/Examples.swift")
    /// The manifest's `[services.<name>]` table.
    static let manifestEntry = Template("Vertical/suite.toml")

    // MARK: A product (`init`)

    /// `Package.swift`.
    static let package = Template("Product/Package.swift")
    /// `Tests/Contracts/Tool/main.swift`: the contract tool.
    static let contractsTool = Template("Product/ContractsTool.swift")
    /// `Tests/Contracts/Tests/ContractGuardTests.swift`: the lock and golden fixtures, checked by `make test`.
    static let contractTests = Template("Product/ContractGuardTests.swift")
    /// `deploy/suite.toml` before its first vertical's table.
    static let manifest = Template("Product/suite.toml")
    /// `Makefile`.
    static let makefile = Template("Product/Makefile")
    /// `swift.mk`: how the Makefile finds Swift; the framework's own Makefile includes the same file.
    static let swiftMakefile = Template("Product/swift.mk")
    /// `.ci/run`.
    static let ci = Template("Product/ci-run")
    /// `README.md`.
    static let readme = Template("Product/README.md")
    /// `.gitignore`.
    static let gitignore = Template("Product/gitignore")
    /// `.containerignore`: what the image's build context leaves out.
    static let containerignore = Template("Product/containerignore")

    /// Every template, each once.
    static let all: [Template] = [
        contract, messages, world, failure, model, useCase, migrations, repository, endpoint, serviceError, main,
        testFixtures, helloTests, examples, manifestEntry,
        package, contractsTool, contractTests, manifest, makefile, swiftMakefile, ci, readme, gitignore,
        containerignore,
    ]
}

extension Template {
    /// The values of a vertical's templates: vertical `v`, calling `calls`, its contract in module `interface`.
    static func values(of v: VerticalName, calls: [VerticalName], interface: String) -> [String: String] {
        let peers =
            calls.isEmpty
            ? "None yet; add the service to `depends_on` in deploy/suite.toml when it starts calling one."
            : calls.map(\.name).joined(separator: ", ")
                + " (its `depends_on` in deploy/suite.toml), e.g.\n/// `try await caller.call(\(calls[0].typeName).<operation>, …)`."
        return [
            "Name": v.typeName, "name": v.name, "Interface": interface, "executable": v.executable,
            "worldImports": calls.isEmpty ? "" : "import \(interface)\n",
            "mainImports": ["Glibc", interface, "\(v.typeName)Service", "VerticalsServiceKit"].sorted()
                .map { "import \($0)" }.joined(separator: "\n"),
            "callees": calls.isEmpty
                ? ".none" : "Callees(" + calls.map { "\($0.typeName).self" }.joined(separator: ", ") + ")",
            "peers": peers,
            "dependsOn": calls.map { "\"\($0.name)\"" }.joined(separator: ", "),
            "calling": calls.isEmpty ? "" : " It calls \(calls.map(\.name).joined(separator: ", ")).",
        ]
    }

    /// The values of a product's templates: product `p` on `framework`, its first vertical `v`.
    static func values(of p: ProductName, framework: FrameworkSource, vertical v: VerticalName) -> [String: String] {
        let checkout: String
        // Folders the image's build mounts read-only at the same path: a framework named by its path.
        let imageVolumes: String
        switch framework {
        case .path(let path):
            checkout = path
            imageVolumes = "$(VERTICALS)"
        case .url:
            checkout = "$(CURDIR)/.build/checkouts/\(framework.identity)"
            imageVolumes = ""
        }
        return values(of: v, calls: [], interface: p.interfaceModule).merging([
            "Product": p.typeName, "product": p.name, "contractsTool": p.contractsTool,
            "frameworkDeclaration": framework.declaration, "frameworkIdentity": swiftLiteral(framework.identity),
            "frameworkCheckout": checkout, "imageVolumes": imageVolumes,
        ]) { _, product in product }
    }
}
