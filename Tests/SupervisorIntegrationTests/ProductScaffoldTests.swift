import Glibc
import Testing
import VerticalsScaffold
import VerticalsSupervisor
import VerticalsTesting
import VerticalsSharedTesting

/// `svc-supervisor init`'s plan and files, and `new` inside the product it makes (no build: the
/// product is built and called in InitCommandTests).
@Suite(.blocking) struct ProductScaffoldTests {
    static let framework = FrameworkSource.path(ManifestFixture.repositoryRoot)
    /// For the plans whose point is not a clash with the framework's targets: none are read.
    static let noTargets = FrameworkTargets(checkout: ManifestFixture.repositoryRoot, names: [])

    func read(_ root: String, _ path: String) -> String? { readFile("\(root)/\(path)") }

    /// Writes the product `name` (vertical `greeter`) on `framework` at `root`.
    static func apply(_ root: String, name: String = "acme", framework: FrameworkSource = framework) throws {
        try ProductScaffold(
            root: root, name: name, vertical: "greeter", framework: framework, frameworkTargets: noTargets
        ).apply()
    }

    /// ``apply(_:name:framework:)`` at `folder` of `directory`; its path.
    static func apply(
        _ folder: String = "acme", in directory: TemporaryDirectory, framework: FrameworkSource = framework
    ) throws -> String {
        let root = directory.file(folder)
        try apply(root, framework: framework)
        return root
    }

    @Test func init_writesAPackageOnTheFrameworkAndNewAddsAVerticalToIt() throws {
        let directory = TemporaryDirectory()
        let root = try Self.apply(in: directory)

        let package = try #require(read(root, "Package.swift"))
        #expect(
            package.contains(
                "let framework: Package.Dependency = .package(path: \"\(ManifestFixture.repositoryRoot)\")"))
        #expect(package.contains("name: \"AcmeInterface\""))
        #expect(package.contains("name: \"acme-contracts\""))
        #expect(package.contains("    + vertical(\"Greeter\")\n"))
        #expect(!package.contains("IOInterface"), "the product's own module is not the framework's IOInterface")
        #expect(package.contains(".plugin(name: \"VerticalsContractListPlugin\", package: verticals)"))
        #expect(
            read(root, "Shared/AcmeInterface/Contracts.swift") == nil, "Contracts.all is generated, not kept by hand")
        #expect(read(root, "Services/Greeter/main/main.swift")?.contains("import AcmeInterface\n") == true)
        #expect(read(root, "deploy/suite.toml")?.contains("[services.greeter]\nexecutable = \"svc-greeter\"") == true)
        #expect(
            read(root, "Makefile")?.contains("\n\t\"$(BIN)/svc-supervisor\" up --manifest deploy/suite.toml") == true)
        #expect(read(root, ".gitignore")?.contains(".build*/\nPackage.resolved\n") == true)
        // How to build, test, install and deploy it: Makefile targets, and a README that names each.
        let makefile = try #require(read(root, "Makefile"))
        for target in ["build", "test", "install", "systemd", "kubernetes", "image"] {
            #expect(makefile.contains("\n\(target): "), "the Makefile has no \(target) target")
        }
        #expect(
            makefile.contains("scripts/install-suite.sh\"") && makefile.contains("\"$(PREFIX)\" \"$(DESTDIR)\""),
            "install runs the framework's recipe for its own prefix")
        #expect(
            makefile.contains(
                "export kubernetes --manifest deploy/suite.toml --image \"$(IMAGE)\" --out .build/kubernetes"))
        let readme = try #require(read(root, "README.md"))
        for (heading, says) in [
            ("## Building and testing", "make test"), ("## Installing", "make install"),
            ("## Deploying", "make kubernetes"),
        ] {
            let section = readme.firstRange(of: heading).map {
                readme[$0.upperBound...].split(separator: "\n## ").first ?? ""
            }
            #expect(section?.contains(says) == true, "the README's \(heading) does not say \(says)")
        }
        #expect(access("\(root)/.ci/run", X_OK) == 0)
        let (manifest, problems) = ManifestParser.load(
            path: "\(root)/deploy/suite.toml", binDirectory: "/bin", checkExecutables: false)
        #expect(problems == [])
        #expect(manifest.services.map(\.name) == ["greeter"])

        // `new` reads the product: its contracts module, its contract tool, no codec examples.
        let layout = try ProductLayout.read(root: root)
        #expect(
            layout
                == ProductLayout(
                    root: root, interfaceModule: "AcmeInterface", contractsTool: "acme-contracts",
                    generatesContractList: true))
        let scaffold = try Scaffold(name: "billing", calls: ["greeter"], root: root)
        try scaffold.apply()
        #expect(
            read(root, "Package.swift")?.contains("    + vertical(\"Greeter\")\n    + vertical(\"Billing\")\n") == true)
        #expect(
            scaffold.plannedFiles.filter { !$0.hasPrefix("Services/") && !$0.hasPrefix("Tests/Services/") } == [
                "Shared/AcmeInterface/Verticals/Billing/Billing.swift",
                "Shared/AcmeInterface/Verticals/Billing/billing.vcontract",
                "Package.swift", "deploy/suite.toml",
            ], "new writes files and edits only Package.swift's list and the manifest")
        #expect(read(root, "Shared/AcmeInterface/Verticals/Billing/billing.vcontract") != nil)
        #expect(
            read(root, "Services/Billing/Sources/Endpoint/Endpoint.swift")?.contains("import AcmeInterface\n") == true)
        #expect(!scaffold.plannedFiles.contains { $0.hasPrefix("Tests/AcmeInterfaceTests") })
        #expect(
            read(root, "deploy/suite.toml")?.contains(
                "[services.billing]\nexecutable = \"svc-billing\"\ndepends_on = [\"greeter\"]") == true)

        // `new` in the product reads the framework's targets from the checkout it depends on: one of its
        // `<Type>Service` targets would share the product's package graph, so its vertical is refused.
        let targets = try FrameworkTargets.read(checkout: ManifestFixture.repositoryRoot)
        let taken = try #require(Self.verticalNames(of: targets).first)
        #expect { _ = try Scaffold(name: taken.name, calls: [], root: root) } throws: {
            "\($0)".contains("SwiftPM needs unique target names in one package graph")
        }
    }

    /// The vertical names whose `<Type>Service` target the framework's package declares.
    static func verticalNames(of targets: FrameworkTargets) -> [VerticalName] {
        targets.names.sorted().compactMap { target in
            guard target.hasSuffix("Service"), target.count > 7 else { return nil }
            return try? VerticalName(target.dropLast(7).lowercased())
        }
    }

    /// `init` refuses a vertical whose targets (`<Type>Service`, `svc-<name>`, `<Type>ServiceTests`) the
    /// framework's package declares, read from its checkout, and names the clashing target.
    @Test func init_refusesAVerticalWhoseTargetTheFrameworkDeclares_namingIt() throws {
        let directory = TemporaryDirectory()
        let targets = try FrameworkTargets.read(checkout: ManifestFixture.repositoryRoot)
        #expect(
            targets.names.contains("VerticalsScaffold"),
            "dump-package read the framework's graph: \(targets.names.sorted())")
        let taken = Self.verticalNames(of: targets)
        #expect(!taken.isEmpty, "the framework's package has a vertical's targets to clash with")
        for vertical in taken {
            #expect {
                _ = try ProductScaffold(
                    root: directory.file("other"), name: "Other", vertical: vertical.name, framework: Self.framework,
                    frameworkTargets: targets)
            } throws: { error in
                let text = "\(error)"
                return text.contains("\(vertical.typeName)Service") && text.contains("unique target names")
            }
        }
        #expect(access(directory.file("other"), F_OK) != 0, "a refused init wrote something")

        // Any of the three targets clashes; a name none of them takes passes.
        let made = FrameworkTargets(checkout: "/f", names: ["svc-widgets", "GadgetsServiceTests"])
        #expect(throws: ScaffoldError.self) { try made.refuse(clashesOf: try VerticalName("widgets")) }
        #expect(throws: ScaffoldError.self) { try made.refuse(clashesOf: try VerticalName("gadgets")) }
        try made.refuse(clashesOf: try VerticalName("greeter"))
    }

    @Test func new_inThisCheckout_findsIOInterfaceAndVtContracts() throws {
        let layout = try ProductLayout.read(root: ManifestFixture.repositoryRoot)
        #expect(layout.interfaceModule == "IOInterface")
        #expect(layout.contractsTool == "vt-contracts")
        #expect(layout.examplesPath == "Tests/IOInterfaceTests/Fixtures.swift")
    }

    @Test func init_intoAFolderThatIsNotEmpty_refusesAndWritesNothing() throws {
        let directory = TemporaryDirectory()
        let root = directory.file("acme")
        _ = try runCommand("/bin/sh", ["-c", "mkdir \(root) && echo mine > \(root)/notes.txt"], in: directory)
        #expect(throws: ScaffoldError.notEmpty(root, holding: ["notes.txt"])) {
            try Self.apply(root, name: "Acme")
        }
        #expect(try runCommand("/bin/ls", ["-A", root], in: directory).standardOutput == "notes.txt\n")
    }

    @Test(arguments: [
        ("bad-name", "letter followed by letters or digits"), ("9lives", "letter"), ("Verticals", "taken"),
    ])
    func init_withABadProductName_refuses(name: String, says: String) throws {
        let directory = TemporaryDirectory()
        #expect {
            _ = try ProductScaffold(
                root: directory.file("p"), name: name, vertical: "greeter", framework: Self.framework,
                frameworkTargets: Self.noTargets)
        } throws: { "\($0)".contains(says) }
        #expect(readFile(directory.file("p")) == nil && access(directory.file("p"), F_OK) != 0)
    }

    /// The framework's location goes into Package.swift (a Swift literal) and the Makefile (a make
    /// value its recipes hand to a shell): one that either would read as code is refused, and a URL
    /// is written as one escaped literal whatever it holds.
    @Test(arguments: [
        (FrameworkSource.url("https://host/team/v$(shell touch pwned).git", version: "0.2.0"), "package identity"),
        (.url("https://host/team/v\"erticals", version: "0.2.0"), "package identity"),
        (.url("https://host/team/v\nerticals", version: "0.2.0"), "package identity"),
        (.url("https://host/team/.git", version: "0.2.0"), "package identity"),
        (.url("https://host/\nteam/verticals.git", version: "0.2.0"), "control character"),
        (.path("/tmp/$(shell touch pwned)/verticals"), "holds \"$\""),
        (.path("/tmp/a b/verticals"), "holds \" \""),
        (.path("/tmp/a#b/verticals"), "holds \"#\""),
        (.path("/tmp/a`id`b/verticals"), "holds \"`\""),
        (.path("/tmp/a\"b/verticals"), "holds \"\\\"\""),
    ])
    func init_refusesAFrameworkLocationItsFilesWouldReadAsCode(framework: FrameworkSource, says: String) throws {
        let directory = TemporaryDirectory()
        #expect {
            _ = try ProductScaffold(
                root: directory.file("p"), name: "acme", vertical: "greeter", framework: framework,
                frameworkTargets: Self.noTargets)
        } throws: { ($0 as? ScaffoldError)?.code == .checkout && "\($0)".contains(says) }
        #expect(access(directory.file("p"), F_OK) != 0, "nothing is written")
    }

    @Test func init_writesAnyURLAsOneSwiftLiteral_thatSwiftParses() throws {
        let directory = TemporaryDirectory()
        let url = #"https://host/a"b\(c)\d/verticals.git"#
        let root = try Self.apply(in: directory, framework: .url(url, version: "0.2.0"))
        let package = try #require(read(root, "Package.swift"))
        #expect(package.contains(#".package(url: "https://host/a\"b\\(c)\\d/verticals.git", from: "0.2.0")"#))
        #expect(package.contains("let verticals = \"verticals\"\n"))
        let parsed = try runCommand(
            "/bin/sh", ["-c", "swiftc -parse \"$0\" 2>&1", "\(root)/Package.swift"],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(120))
        #expect(parsed.status == 0, "\(parsed.standardOutput)")
    }

    @Test func init_whenAWriteFails_takesBackEverythingItWrote() throws {
        let directory = TemporaryDirectory()
        let root = directory.file("acme")
        // A file where Services/ must go: the first files are written, then this fails.
        _ = try runCommand("/bin/sh", ["-c", "mkdir \(root)"], in: directory)
        let scaffold = try ProductScaffold(
            root: root, name: "Acme", vertical: "greeter", framework: Self.framework, frameworkTargets: Self.noTargets)
        _ = try runCommand("/bin/sh", ["-c", "echo x > \(root)/Services"], in: directory)
        #expect {
            try scaffold.apply()
        } throws: { error in
            (error as? ScaffoldError)?.code == .write
        }
        #expect(try runCommand("/bin/ls", ["-A", root], in: directory).standardOutput == "Services\n")
    }

    /// The product's `make image` runs the framework's own scripts/image.sh on the product's export;
    /// a framework named by its path is mounted into the build (the URL one is fetched by SwiftPM),
    /// and the build context leaves the product's build folders out.
    @Test func init_givesTheProductMakeImage_throughTheFrameworksImageScript() throws {
        let directory = TemporaryDirectory()
        let byPath = try Self.apply("bypath", in: directory)
        let makefile = try #require(read(byPath, "Makefile"))
        #expect(
            makefile.contains("\nIMAGE ?= localhost/acme:0.1.0\nIMAGE_VOLUMES ?= $(VERTICALS)\nimage: deps\n"),
            "\(makefile)")
        #expect(
            makefile.contains(
                "\n\tVT_IMAGE_VOLUMES=\"$(IMAGE_VOLUMES)\" bash \"$(VERTICALS)/scripts/image.sh\" .build/image/kubernetes . \"$(IMAGE)\" deploy/suite.toml\n"
            ))
        #expect(
            makefile.contains(
                "export kubernetes --manifest deploy/suite.toml --image \"$(IMAGE)\" --out .build/image/kubernetes"))
        #expect(
            access("\(ManifestFixture.repositoryRoot)/scripts/image.sh", R_OK) == 0, "the product's make image runs it")
        let ignored = (read(byPath, ".containerignore") ?? "").split(separator: "\n").map(String.init)
        #expect(ignored.contains(".build") && ignored.contains(".run") && ignored.contains(".git"), "\(ignored)")

        let url = FrameworkSource.url("https://github.com/example/Verticals.git", version: "0.1.0")
        let byURL = try Self.apply("byurl", in: directory, framework: url)
        #expect(
            read(byURL, "Makefile")?.contains("\nIMAGE_VOLUMES ?= \nimage: deps\n") == true,
            "SwiftPM fetches a framework named by URL")
    }

    @Test func frameworkSource_namesThePackageAsSwiftPMDoes_andFindsThisCheckout() {
        #expect(FrameworkSource.path("/work/Verticals").identity == "verticals")
        #expect(FrameworkSource.url("https://example.com/team/Verticals.git", version: "1.0.0").identity == "verticals")
        let bin = "\(ManifestFixture.repositoryRoot)/.build/debug"
        #expect(FrameworkSource.checkout(around: bin) == .path(ManifestFixture.repositoryRoot))
        #expect(FrameworkSource.checkout(around: "/tmp") == nil)
    }

    @Test func initCommand_dependsOnTheCheckoutItIsGiven_andRefusesHalfAFrameworkSource() throws {
        let directory = TemporaryDirectory()
        let product = directory.file("acme")
        // `init` reads the framework's targets with the toolchain's `swift`, which a product's user has on PATH,
        // and a HOME (without one, Foundation puts SwiftPM's user cache in /home/.cache, whoever runs it).
        let path = PackageBuild.toolchainEnvironment
        let planned = try runCommand(
            "svc-supervisor", ["init", product, "--dry-run", "--framework-path", ManifestFixture.repositoryRoot],
            environment: path,
            in: directory)
        #expect(planned.status == 0, "\(planned.standardError)")
        #expect(
            planned.standardOutput.contains(
                "would create product Acme in \(product), on the framework at \(ManifestFixture.repositoryRoot),"))
        #expect(planned.standardOutput.contains("  + Shared/AcmeInterface/Verticals/Greeter/greeter.vcontract"))
        #expect(!planned.standardOutput.contains("Contracts.swift"))
        #expect(access(product, F_OK) != 0, "--dry-run wrote something")

        let taken = try #require(
            Self.verticalNames(of: try FrameworkTargets.read(checkout: ManifestFixture.repositoryRoot)).first)
        for (arguments, says) in [
            (["--framework-version", "1.0.0"], "give either"),
            (["--framework-path", directory.path], "not a Verticals checkout"),
            (["--name", "no-dashes"], "letter followed by letters or digits"),
            (
                ["--vertical", taken.name, "--framework-path", ManifestFixture.repositoryRoot],
                "\(taken.typeName)Service is also a target of the Verticals package"
            ),
        ] {
            let refused = try runCommand(
                "svc-supervisor", ["init", product, "--skip-fixtures"] + arguments, environment: path, in: directory)
            #expect(
                refused.status == 64 && refused.standardError.contains(says), "\(arguments): \(refused.standardError)")
            #expect(access(product, F_OK) != 0, "\(arguments): a refused init wrote something")
        }
    }

    /// SwiftPM's answer is its status and its JSON: in a home folder nobody can write (a read-only
    /// home, as in many CI containers), it warns about its caches on standard error, and `init` and
    /// `new` still read the framework's targets, refusing a vertical that takes one of their names.
    @Test func initAndNew_inAHomeTheyCannotWrite_stillReadTheFrameworksTargets() throws {
        let directory = TemporaryDirectory()
        let product = directory.file("acme")
        // Under a regular file: not even root can make its .cache. The compiler's module cache,
        // which the manifest's compilation needs, goes to the test's folder instead.
        writeText("", to: directory.file("file"))
        var environment = PackageBuild.toolchainEnvironment
        environment["HOME"] = directory.file("file/home")
        environment["XDG_CACHE_HOME"] = nil
        environment["CLANG_MODULE_CACHE_PATH"] = directory.file("module-cache")
        let warned = try runCommand(
            "/usr/bin/env",
            [
                "swift", "package", "--package-path", ManifestFixture.repositoryRoot, "--scratch-path",
                directory.file("scratch"), "dump-package",
            ],
            environment: environment, in: directory, timeout: .seconds(120))
        try #require(
            warned.status == 0 && warned.standardError.contains("warning:"),
            "SwiftPM did not warn: \(warned.standardError)")

        let taken = try #require(
            Self.verticalNames(of: try FrameworkTargets.read(checkout: ManifestFixture.repositoryRoot)).first)
        let created = try runCommand(
            "svc-supervisor", ["init", product, "--skip-fixtures", "--framework-path", ManifestFixture.repositoryRoot],
            environment: environment, in: directory, timeout: .seconds(120))
        #expect(created.status == 0, "\(created.standardError)")
        let added = try runCommand(
            "svc-supervisor", ["new", "billing", "--root", product, "--dry-run"], environment: environment,
            in: directory,
            timeout: .seconds(120))
        #expect(
            added.status == 0 && added.standardOutput.contains("would create vertical billing"),
            "\(added.standardOutput)\(added.standardError)")
        let refused = try runCommand(
            "svc-supervisor", ["new", taken.name, "--root", product, "--dry-run"], environment: environment,
            in: directory,
            timeout: .seconds(120))
        #expect(
            refused.status == 64
                && refused.standardError.contains("\(taken.typeName)Service is also a target of the Verticals package"),
            "\(refused.standardError)")
    }
}
