import Foundation
import Glibc
import Testing
import VerticalsContract
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

/// `svc-supervisor init` proven from outside: a product made in an empty temporary folder,
/// depending on a tagged release of this checkout by URL and version (`.package(url:from:)`), built
/// on its own, run under its own svc-supervisor and called with this checkout's `svc-supervisor`,
/// which was built before the product existed. The release is a bare clone of this checkout's
/// last commit tagged `vX.Y.Z` (scripts/release-clone.sh), standing in for the published
/// repository, so the product builds the committed framework, not uncommitted changes.
/// The product's build compiles none of the reference suite, and its daemon holds none of it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(40)))
struct InitCommandTests {
    /// The reference suite of this checkout, which a product's build must never compile and whose
    /// names no product binary may contain (an operation's full name is put together at run time,
    /// so the schema names every contract's messages carry stand for it).
    static func reference() throws -> ReferenceSuiteNames {
        try ReferenceSuiteNames(checkout: ManifestFixture.repositoryRoot)
    }

    /// The search finds the reference suite, so that the product's check cannot pass by finding none.
    @Test func referenceSuite_isFoundFromTheCheckoutsContracts() throws {
        let reference = try Self.reference()
        #expect(reference.types.count >= 5 && reference.contracts.count == reference.types.count, "\(reference.types)")
        #expect(!reference.contracts.contains(""), "a contract file without its `contract` line")
        for contract in reference.contracts {
            #expect(reference.schemaNames.contains { $0.hasPrefix(contract + ".") }, "\(contract) declares no message")
            #expect(reference.targets.contains("svc_\(contract)"))
        }
        #expect(reference.strings.contains("IOInterface"))
    }

    @Test func init_fromATaggedRelease_buildsAProductThatThisCheckoutsCLICalls() throws {
        let directory = TemporaryDirectory()
        let product = directory.file("acme")
        let started = ContinuousClock.now

        // 1. The release: a bare repository holding this checkout's last commit, tagged vX.Y.Z: the
        // release this build is, or (between releases) the one it will be.
        let bare = directory.file("verticals.git")
        let version = VerticalsVersion.release
        let tagged = try runCommand(
            "/bin/sh",
            [
                "-c", "bash \"$0/scripts/release-clone.sh\" \"$1\" \"$2\"", ManifestFixture.repositoryRoot, bare,
                version,
            ],
            environment: PackageBuild.toolchainEnvironment, in: directory, timeout: .seconds(120))
        try #require(tagged.status == 0 && tagged.standardOutput == "v\(version)\n", "\(tagged.standardError)")

        // 2. init on that release, which writes the lock and golden fixtures with the product's own
        // contract tool: SwiftPM fetches the framework from the URL and pins the tag.
        let url = "file://\(bare)"
        let created = try runCommand(
            "svc-supervisor",
            [
                "init", product, "--name", "Acme", "--vertical", "greeter", "--framework-url", url,
                "--framework-version", version,
                "--build-jobs", "\(PackageBuild.jobs)",
            ],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(1500))
        try #require(created.status == 0, "\(created.standardOutput)\n\(created.standardError)")
        let manifest = try #require(readFile("\(product)/Package.swift"))
        #expect(manifest.contains(".package(url: \"\(url)\", from: \"\(version)\")"), "\(manifest)")
        #expect(!manifest.contains(".package(path:"), "a release product names no local path")
        let pins = try #require(readFile("\(product)/Package.resolved"), "init's build left no Package.resolved")
        // The framework's pin: the one whose location is the release's (SwiftPM keeps a local
        // repository's as its path, `localSourceControl`).
        let pinned = try JSONDecoder().decode(ResolvedPins.self, from: Data(pins.utf8)).pins.first {
            $0.location == url || $0.location == bare
        }
        #expect(pinned?.state.version == version, "the framework is not pinned to the tag: \(pins)")
        #expect(
            readFile("\(product)/Tests/Contracts/Fixtures/greeter/hello.json")?.contains("\"greeter.HelloInput\"")
                == true)
        #expect(readFile("\(product)/Tests/Contracts/contracts.lock.json")?.contains("\"greeter.Greeting\"") == true)
        let again = try runCommand("svc-supervisor", ["init", product, "--name", "Acme"], in: directory)
        #expect(again.status == 64 && again.standardError.contains("is not empty"), "\(again.standardError)")

        // 3. The product's targets and tests, on their own.
        try build(product, "--build-tests", in: directory)
        // SwiftPM plans a folder for every target of the graph; what it compiled has objects and modules.
        let objects = try runCommand(
            "/bin/sh", ["-c", "cd \(product)/.build/debug && find . -name '*.o' -o -name '*.swiftmodule'"],
            in: directory
        ).standardOutput
        let reference = try Self.reference()
        for target in reference.targets {
            #expect(
                !objects.contains("/\(target).build/") && !objects.contains("/Modules/\(target).swiftmodule"),
                "building the product compiled the reference suite's \(target)")
        }
        #expect(
            objects.contains("/Modules/AcmeInterface.swiftmodule") && objects.contains("/svc_greeter.build/"),
            "\(objects)")
        let daemon = "\(product)/.build/debug/svc-greeter"
        try #require(access(daemon, R_OK) == 0, "the product's build left no \(daemon)")
        let held = try Self.occurrences(of: reference.strings, inFile: daemon, in: directory)
        #expect(held.isEmpty, "svc-greeter holds the reference suite's \(held.sorted())")
        let own = try Self.occurrences(of: ["greeter.HelloInput", "AcmeInterface"], inFile: daemon, in: directory)
        #expect(
            own == ["greeter.HelloInput", "AcmeInterface"],
            "svc-greeter should hold its own contract's names (is the search broken?)")
        let tested = try runCommand(
            "/bin/sh",
            [
                "-c",
                "cd \(product) && swift test --skip-build > test.log 2>&1; status=$?; tail -8 test.log; exit $status",
            ],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(300))
        #expect(tested.status == 0, "the product's own tests failed:\n\(tested.standardOutput)")
        let checked = try runCommand(
            "\(product)/.build/debug/acme-contracts", ["check", "--root", product], in: directory)
        #expect(
            checked.status == 0 && checked.standardOutput.contains("contracts match the lock"),
            "\(checked.standardOutput)")

        // 4. Its svc-supervisor (which hands `up` to svc-supervisor-engine) and vt-exec, as `make run`
        // builds them, then `up` on its manifest.
        try build(product, "--product svc-supervisor", in: directory)
        try build(product, "--product svc-supervisor-engine", in: directory)
        try build(product, "--product vt-exec", in: directory)
        print("InitCommandTests: init and the product's build took \(ContinuousClock.now - started)")
        let run = directory.file("run")
        let supervisor = try DaemonProcess(
            "\(product)/.build/debug/svc-supervisor",
            ["up", "--manifest", "\(product)/deploy/suite.toml", "--run-dir", run])
        defer { supervisor.stop() }
        let ready = eventually(timeout: .seconds(60)) {
            let status = try? runCommand(
                "svc-supervisor", ["status", "--run-dir", run], in: directory, timeout: .seconds(5))
            return status?.standardOutput.split(separator: "\n").contains { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                return columns.count >= 2 && columns[0] == "greeter" && columns[1] == "ready"
            } == true
        }
        try #require(ready, "svc-greeter never became ready under the product's svc-supervisor")

        // 5. Its vertical over the wire, from a client that knows only the schema `init` declares.
        let client = try RawClient(path: "\(run)/sockets/greeter.sock")
        try client.sendRequest(id: 1, operation: "greeter.hello", body: Self.hello("Ada"))
        guard case .message(let message) = client.receive() else {
            Issue.record("greeter.hello got no answer")
            return
        }
        let greeting = try MessageValue(decoding: Array(message.body), as: Self.greeting)
        #expect(greeting[1] == .string("Hello, Ada!") && greeting[2] == .int(1))

        // 6. This checkout's CLI, compiled without the product's contract: it learns it from `daemon.describe`
        // (cached in the test's own folder, so nobody's ~/.cache is touched).
        var environment = PackageBuild.environment(in: directory)
        environment["XDG_CACHE_HOME"] = directory.file("cache")
        let called = try runCommand(
            "svc-supervisor", ["call", "greeter", "hello", #"{"name":"x"}"#, "--run-dir", run],
            environment: environment, in: directory, timeout: .seconds(30))
        #expect(called.status == 0, "\(called.standardOutput)\(called.standardError)")
        #expect(called.standardOutput.contains("Hello, x!"), "\(called.standardOutput)")

        // 7. `export systemd` for the product's manifest.
        let units = directory.file("units")
        let exported = try runCommand(
            "\(product)/.build/debug/svc-supervisor",
            ["export", "systemd", "--manifest", "\(product)/deploy/suite.toml", "--out", units], in: directory)
        #expect(exported.status == 0, "\(exported.standardError)")
        // Named after the product (`[suite] name = "acme"`, which init wrote), not the framework's suite.
        #expect(readFile("\(units)/acme-greeter.service")?.contains("svc-greeter") == true)

        // 8. `make install` of that build, staged for /usr (deps skipped: the build above had them),
        // with Swift off PATH where this toolchain is /opt/swift's: the product's swift.mk finds it.
        let staged = directory.file("stage")
        let offPath = SwiftOffPath.environment(PackageBuild.environment(in: directory))
        if offPath == nil {
            print("InitCommandTests: Swift is not at \(SwiftOffPath.fallbackFolder); make runs with it on PATH")
        }
        let installed = try runCommand(
            "/usr/bin/make",
            ["-C", product, "-o", "deps", "install", "CONFIGURATION=debug", "PREFIX=/usr", "DESTDIR=\(staged)"],
            environment: offPath ?? PackageBuild.environment(in: directory), in: directory, timeout: .seconds(600))
        #expect(installed.status == 0, "\(installed.standardOutput)\(installed.standardError)")
        for program in ["svc-greeter", "svc-supervisor", "svc-supervisor-engine", "vt-exec"] {
            #expect(access("\(staged)/usr/bin/\(program)", X_OK) == 0, "make install did not install \(program)")
        }
        for file in [
            "lib/sysusers.d/acme.conf", "lib/tmpfiles.d/acme.conf", "etc/acme/suite.toml",
            "lib/systemd/system/acme.target", "lib/systemd/system/acme-secrets.conf",
        ] {
            #expect(access("\(staged)/usr/\(file)", R_OK) == 0, "make install did not install \(file)")
        }
        let unit = readFile("\(staged)/usr/lib/systemd/system/acme-greeter.service") ?? ""
        #expect(unit.contains("/usr/bin/"), "the installed unit runs its programs from its own prefix: \(unit)")

        // 9. `new` in the product writes the vertical's files, adds it to Package.swift's list and to
        // the manifest, and edits no contract list: `Contracts.all` is generated, so the product's
        // contract tool, which `new` runs to write the lock and fixtures, already lists billing.
        let added = try runCommand(
            "svc-supervisor",
            ["new", "billing", "--calls", "greeter", "--root", product, "--build-jobs", "\(PackageBuild.jobs)"],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(900))
        #expect(added.status == 0, "\(added.standardOutput)\(added.standardError)")
        #expect(readFile("\(product)/Shared/AcmeInterface/Contracts.swift") == nil, "new wrote a contract list")
        let lock = readFile("\(product)/Tests/Contracts/contracts.lock.json") ?? ""
        #expect(lock.contains("\"billing.Greeting\"") && lock.contains("\"greeter.Greeting\""), "\(lock.prefix(400))")
    }

    /// `swift build <what>` in `product`; fails the test with the build's tail (and any warning) otherwise.
    func build(_ product: String, _ what: String, in directory: TemporaryDirectory) throws {
        let built = try PackageBuild.run(what, in: product, log: directory.file("build.log"), from: directory)
        try #require(built.status == 0, "swift build \(what) failed:\n\(built.standardOutput)")
        #expect(!built.standardOutput.contains("warning:"), "\(built.standardOutput)")
    }

    /// Which of `needles` occur in the bytes of the file at `path`, found by one `grep -F` over it:
    /// a byte-by-byte search in this test's unoptimised build took seconds a needle on a daemon
    /// of tens of MiB. Where two needles start at one place only the longer is named, so a file
    /// holding any needle names at least one.
    static func occurrences(of needles: [String], inFile path: String, in directory: TemporaryDirectory) throws -> Set<
        String
    > {
        let found = try runCommand(
            "/bin/grep", ["--binary-files=text", "--only-matching", "--fixed-strings", "--file=-", path], in: directory,
            standardInput: needles.joined(separator: "\n") + "\n", timeout: .seconds(120))
        // 1: no line matched.
        try #require(found.status == 0 || found.status == 1, "grep failed on \(path): \(found.standardError)")
        return Set(found.standardOutput.split(separator: "\n").map(String.init))
    }

    /// The body of `greeter.HelloInput { name }`, written from its schema, not from its code.
    static func hello(_ name: String) throws -> [UInt8] {
        try MessageValue([.init(tag: 1, value: .string(name))]).encoded(
            as: MessageSchema("HelloInput", [.required(1, "name", .string)]))
    }

    /// `greeter.Greeting`'s schema as `init` declares it.
    static let greeting = MessageSchema("Greeting", [.required(1, "text", .string), .required(2, "count", .int)])
}

/// The part of a `Package.resolved` the release test reads: each pin's location and version.
private struct ResolvedPins: Decodable {
    struct Pin: Decodable {
        struct State: Decodable { let version: String? }
        let location: String
        let state: State
    }
    let pins: [Pin]
}
