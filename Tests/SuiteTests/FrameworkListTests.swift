import Glibc
import Testing
import VerticalsTesting

/// Package.swift's products are the one list of the framework's public API (its `Verticals*`
/// libraries and plugin): docs/FRAMEWORK.md's table and `make api-check` follow it.
struct FrameworkListTests {
    /// Every `Verticals*` library and plugin product Package.swift declares.
    static func packageProducts(_ manifest: String) throws -> Set<String> {
        var names: Set<String> = []
        for match in manifest.matches(of: try Regex(#"\.(?:library|plugin)\(name: "(Verticals\w+)", targets:"#)) {
            if let name = match.output[1].substring { names.insert(String(name)) }
        }
        return names
    }

    /// The products the "What a product depends on" table names in its first column.
    static func documentedProducts(_ page: String) throws -> Set<String> {
        var names: Set<String> = []
        for match in page.matches(of: try Regex(#"(?m)^\| `(Verticals\w+)` \|"#)) {
            if let name = match.output[1].substring { names.insert(String(name)) }
        }
        return names
    }

    @Test func frameworkMd_listsExactlyThePackagesProducts() throws {
        let root = DocsTests.packageRoot
        let manifest = try #require(readFile(root + "/Package.swift"))
        let page = try #require(readFile(root + "/docs/FRAMEWORK.md"))
        let products = try Self.packageProducts(manifest)
        let documented = try Self.documentedProducts(page)
        #expect(products.count >= 10 && products.contains("VerticalsScaffold"), "read \(products.sorted())")
        #expect(
            documented == products,
            "docs/FRAMEWORK.md lacks \(products.subtracting(documented).sorted()), Package.swift has no \(documented.subtracting(products).sorted())"
        )
    }

    /// The folders docs/getting-started.md's layout names are the checkout's: each top-level
    /// folder, each folder of `Shared/` it lists, and each program of `Services/Supervisor/`.
    @Test func gettingStartedsLayout_namesTodaysFolders() throws {
        let root = DocsTests.packageRoot
        let page = try #require(readFile(root + "/docs/getting-started.md"))
        let block = try #require(page.firstRange(of: "```\nPackage.swift").map { page[$0.lowerBound...] })
        let body = block.dropFirst(4)
        let layout = String(body[..<(body.firstRange(of: "\n```")?.lowerBound ?? body.endIndex)])
        var named: [String] = []
        for line in layout.split(separator: "\n") {
            if let top = line.firstMatch(of: #/^(\w+)/ /#) { named.append(String(top.output.1)) }
            if let shared = line.firstMatch(of: #/^  (\w+)/ /#) { named.append("Shared/\(shared.output.1)") }
        }
        let listed = layout.matches(of: #/\(([A-Z]\w+)/,|, ([A-Z]\w+)/[,)]/#).compactMap {
            ($0.output.1 ?? $0.output.2).map { "Shared/\($0)" }
        }
        let programs = ["svc-supervisor", "svc-supervisor-engine", "vt-exec", "vt-settings", "vt-fuzz-live"].filter {
            layout.contains($0)
        }
        #expect(
            named.contains("Shared") && named.contains("Services") && listed.contains("Shared/Wire"),
            "read \(named), \(listed)")
        for folder in named + listed + programs.map({ "Services/Supervisor/\($0)" }) + ["Services/Identity/CSodium"] {
            var isFolder = stat()
            #expect(
                stat("\(root)/\(folder)", &isFolder) == 0 && isFolder.st_mode & S_IFMT == S_IFDIR,
                "\(folder) is named in the layout and is not a folder")
        }
    }

    @Test func apiCheck_readsPackageSwift_notAListOfItsOwn() throws {
        let makefile = try #require(readFile(DocsTests.packageRoot + "/Makefile"))
        let line = makefile.split(separator: "\n").first { $0.hasPrefix("API_PRODUCTS") }
        #expect(line == "API_PRODUCTS ?= $(shell SWIFT=\"$(SWIFT)\" bash scripts/api-products.sh)")
        let script = try #require(readFile(DocsTests.packageRoot + "/scripts/api-check.sh"))
        #expect(script.contains("$(bash scripts/api-products.sh)"))
    }

    @Test func theRules_readWhatTheyShould() throws {
        let manifest = #"""
            .library(name: "VerticalsWire", targets: ["VerticalsWire"]),
            .plugin(name: "VerticalsContractPlugin", targets: ["P"]),
            .library(name: "IOInterface", targets: ["IOInterface"]),
            .executable(name: "VerticalsTool", targets: ["t"]),
            """#
        #expect(try Self.packageProducts(manifest) == ["VerticalsWire", "VerticalsContractPlugin"])
        let page = "| `VerticalsWire` | `Shared/Wire` | x |\n| `svc-supervisor` | y | z |\ntext `VerticalsNot` |"
        #expect(try Self.documentedProducts(page) == ["VerticalsWire"])
    }
}
