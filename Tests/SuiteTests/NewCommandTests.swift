import Glibc
import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting
import VerticalsWire

/// `svc-supervisor new` on a copy of this checkout, built and run: the scaffold compiles,
/// its daemon starts, and its example operation answers over the wire.
@Suite(.blocking, .serialized, .timeLimit(.minutes(20)))
struct NewCommandTests {
    /// The repository's root, from this file's place in it.
    static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/")
        parts.removeLast(3) // Tests/SuiteTests/NewCommandTests.swift
        return "/" + parts.joined(separator: "/")
    }()

    @Test func new_inACopyOfTheCheckout_buildsADaemonThatAnswersItsExampleOperation() throws {
        let directory = TemporaryDirectory()
        let copy = directory.file("tree")
        let copied = try runCommand(
            "/bin/sh",
            [
                "-c",
                "mkdir \(copy) && tar -C \(Self.repositoryRoot) --exclude='./.build*' --exclude=./.git --exclude=./.run "
                    + "--exclude=./bench --exclude=./.swiftpm -cf - . | tar -C \(copy) -xf -",
            ],
            in: directory)
        try #require(copied.status == 0, "\(copied.standardError)")

        // A name this checkout does not have yet, even when it already grew verticals with `new`.
        let manifest = readFile("\(copy)/deploy/suite.toml") ?? ""
        let name = (0...).lazy.map { $0 == 0 ? "ledger" : "ledger\($0)" }.first {
            !manifest.contains("[services.\($0)]")
        }!
        let typeName = name.prefix(1).uppercased() + name.dropFirst()

        let created = try runCommand(
            "svc-supervisor",
            ["new", name, "--calls", "identity", "--root", copy, "--build-jobs", "\(PackageBuild.jobs)"],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(900))
        try #require(created.status == 0, "\(created.standardOutput)\n\(created.standardError)")
        // Its golden fixture, written by the checkout's own vt-contracts with the new contract compiled in.
        let fixture = try #require(readFile("\(copy)/Tests/Contracts/Fixtures/\(name)/hello.json"))
        #expect(fixture.contains("\"\(name).HelloInput\""))
        #expect(readFile("\(copy)/Tests/Contracts/contracts.lock.json")?.contains("\"\(name).HelloInput\"") == true)
        #expect(created.standardOutput.contains("+ Services/\(typeName)/Sources/World.swift"))
        #expect(created.standardOutput.contains("~ deploy/suite.toml"))

        let again = try runCommand("svc-supervisor", ["new", name, "--root", copy], in: directory)
        #expect(again.status == 64)
        #expect(again.standardError.contains("already exists"))

        // The vertical's daemon and its unit tests compile in the copy, from nothing but what `new` wrote.
        for target in ["--product=svc-\(name)", "--target=\(typeName)ServiceTests"] {
            let built = try PackageBuild.run(
                target, in: copy, log: "build.log", from: directory, timeout: .seconds(900))
            try #require(built.status == 0, "swift build \(target) failed:\n\(built.standardOutput)")
            #expect(!built.standardOutput.contains("warning:"), "\(built.standardOutput)")
        }

        let sockets = directory.file("sockets")
        let daemon = try DaemonProcess(
            "\(copy)/.build/debug/svc-\(name)",
            environment: ["VERTICALS_SOCKET_DIR": sockets, "STATE_DIRECTORY": directory.file("state")])
        defer { daemon.stop() }
        var client: RawClient?
        #expect(
            eventually(timeout: .seconds(20)) {
                client = try? RawClient(path: "\(sockets)/\(name).sock")
                return client != nil
            })
        let connected = try #require(client)
        for expected in [1, 2] {
            try connected.sendRequest(id: UInt64(expected), operation: "\(name).hello", body: Self.hello("Ada"))
            guard case .message(let message) = connected.receive() else {
                Issue.record("\(name).hello got no answer")
                return
            }
            #expect(message.envelope.kind == .response)
            let greeting = try MessageValue(decoding: Array(message.body), as: Self.greeting)
            #expect(greeting[1] == .string("Hello, Ada!"))
            #expect(greeting[2] == .int(Int64(expected)), "the count is kept in the vertical's store")
        }
    }

    /// The body of `<name>.HelloInput { name }`, written from its schema, not from its code.
    static func hello(_ name: String) throws -> [UInt8] {
        try MessageValue([.init(tag: 1, value: .string(name))]).encoded(
            as: MessageSchema("HelloInput", [.required(1, "name", .string)]))
    }

    /// `<name>.Greeting`'s schema as `new` declares it.
    static let greeting = MessageSchema("Greeting", [.required(1, "text", .string), .required(2, "count", .int)])
}
