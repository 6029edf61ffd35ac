import Glibc
import Testing
import VerticalsScaffold
import VerticalsSupervisor
import VerticalsTesting
import VerticalsSharedTesting

/// `svc-supervisor new` in a scratch checkout made of the real files it reads and edits.
@Suite(.blocking) struct ScaffoldTests {
    /// A scratch checkout: the repository's Package.swift, contract list, manifest and units.
    final class Checkout {
        let tree = TemporaryDirectory()
        /// Where commands keep their captured output, outside the checkout.
        let directory = TemporaryDirectory()
        var root: String { tree.path }

        init() throws {
            for path in [
                "Package.swift", "Shared/Example/IOInterface/Contracts.swift", "deploy/suite.toml",
                "Tests/IOInterfaceTests/Fixtures.swift",
                "deploy/systemd",
            ] {
                try copy(path)
            }
        }

        func copy(_ path: String) throws {
            let target = "\(root)/\(path)"
            _ = try runCommand("/bin/mkdir", ["-p", String(target[..<target.lastIndex(of: "/")!])], in: directory)
            let result = try runCommand(
                "/bin/cp", ["-R", "\(ManifestFixture.repositoryRoot)/\(path)", target], in: directory)
            #expect(result.status == 0, "\(result.standardError)")
        }

        /// Every file under the root with its contents, to prove a refusal changed nothing.
        func snapshot() throws -> String {
            let result = try runCommand(
                "/bin/sh",
                [
                    "-c",
                    "cd \(root) && find . | sort | while read f; do echo \"$f\"; [ -f \"$f\" ] && cat \"$f\"; done",
                ],
                in: directory)
            return result.standardOutput
        }

        func read(_ path: String) -> String? {
            readFile("\(root)/\(path)")
        }

        /// The manifest's services, in order.
        var services: [String] {
            ManifestParser.load(path: "\(root)/deploy/suite.toml", binDirectory: "/bin", checkExecutables: false)
                .0.services.map(\.name)
        }

        /// A vertical the checkout already has, for the new one to call.
        var peer: String {
            get throws { try #require(services.first, "the checkout's manifest lists no service") }
        }

        /// A name no vertical of this checkout has yet (it may have grown some with `new`).
        var freshName: String {
            let taken = Set(services)
            return (0...).lazy.map { $0 == 0 ? "ledger" : "ledger\($0)" }.first { !taken.contains($0) }!
        }
    }

    @Test func new_writesTheContractServiceTestsAndEditsTheCheckout() throws {
        let checkout = try Checkout()
        let name = checkout.freshName
        let type = name.prefix(1).uppercased() + name.dropFirst()
        let peer = try checkout.peer
        var scaffold = try Scaffold(name: name, calls: [peer], root: checkout.root)
        try scaffold.regenerateSystemdUnits(reading: ManifestParser.parsePlanned)
        try scaffold.apply()

        for path in [
            "Shared/Example/IOInterface/Verticals/\(type)/\(type).swift",
            "Shared/Example/IOInterface/Verticals/\(type)/\(name).vcontract",
            "Services/\(type)/Sources/World.swift", "Services/\(type)/Sources/Domain/UseCases/Greet.swift",
            "Services/\(type)/Sources/Data/Migrations.swift", "Services/\(type)/Sources/Endpoint/Endpoint.swift",
            "Services/\(type)/main/main.swift", "Tests/Services/\(type)Tests/HelloTests.swift",
            "deploy/systemd/verticals-\(name).service", "deploy/systemd/verticals-\(name).socket",
        ] {
            #expect(checkout.read(path) != nil, "\(path) was not written")
        }
        #expect(checkout.read("Package.swift")?.contains("+ vertical(\"\(type)\")") == true)
        #expect(checkout.read("Shared/Example/IOInterface/Contracts.swift")?.contains(", \(type).self]") == true)
        #expect(checkout.read("Services/\(type)/Sources/World.swift")?.contains("Calls: \(peer)") == true)
        #expect(checkout.read("Tests/IOInterfaceTests/Fixtures.swift")?.contains(" + \(name)\n") == true)
        #expect(
            checkout.read("Tests/IOInterfaceTests/Fixtures+\(type).swift")?.contains("static let \(name): [Example]")
                == true)
        #expect(checkout.read("deploy/systemd/verticals-\(name).service")?.contains("verticals-\(peer).socket") == true)

        let (manifest, problems) = ManifestParser.load(
            path: "\(checkout.root)/deploy/suite.toml", binDirectory: "/bin", checkExecutables: false)
        #expect(problems == [])
        #expect(manifest[name]?.dependsOn == [peer])
        #expect(try manifest.startOrder().last == name)
    }

    @Test(
        arguments: [
            ("Billing", "lower-case"), ("bill-ing", "lower-case"), ("9lives", "lower-case"), ("", "lower-case"),
            ("supervisor", "reserved"), (nil, "already exists"), (String(repeating: "a", count: 33), "at most 32"),
        ] as [(String?, String)])
    func new_refusesABadOrTakenNameAndChangesNothing(name: String?, says: String) throws {
        let checkout = try Checkout()
        // nil: the name of a vertical the checkout has.
        let name = try name ?? checkout.peer
        let before = try checkout.snapshot()
        #expect {
            var scaffold = try Scaffold(name: name, calls: [], root: checkout.root)
            try scaffold.regenerateSystemdUnits(reading: ManifestParser.parsePlanned)
            try scaffold.apply()
        } throws: { error in
            "\(error)".contains(says)
        }
        #expect(try checkout.snapshot() == before)
    }

    @Test func new_refusesAnUnknownPeer() throws {
        let checkout = try Checkout()
        #expect(throws: ScaffoldError.unknownPeer("payments", known: checkout.services)) {
            _ = try Scaffold(name: checkout.freshName, calls: [try checkout.peer, "payments"], root: checkout.root)
        }
    }

    @Test func new_whenAWriteFailsPartWay_takesBackEverythingItWrote() throws {
        let checkout = try Checkout()
        // A file where the tests' folder must go: the service files are written, then this fails.
        _ = try runCommand(
            "/bin/sh", ["-c", "mkdir -p \(checkout.root)/Tests && echo x > \(checkout.root)/Tests/Services"],
            in: checkout.directory)
        let before = try checkout.snapshot()
        #expect {
            try Scaffold(name: checkout.freshName, calls: [], root: checkout.root).apply()
        } throws: { error in
            (error as? ScaffoldError)?.code == .write
        }
        #expect(try checkout.snapshot() == before)
    }

    @Test func new_outsideACheckout_saysSo() throws {
        let directory = TemporaryDirectory()
        #expect {
            _ = try Scaffold(name: "billing", calls: [], root: directory.path)
        } throws: { error in
            (error as? ScaffoldError)?.code == .checkout
        }
        #expect(Scaffold.findRoot(from: directory.path) == nil)
        #expect(
            Scaffold.findRoot(from: "\(ManifestFixture.repositoryRoot)/Services/Supervisor")
                == ManifestFixture.repositoryRoot)
    }
}
