import Foundation
import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

/// `svc-supervisor call` against `vt-testd`, whose `test.*` contract lives in VerticalsTestSupport and is
/// not linked into svc-supervisor: the CLI learns it from the daemon (`daemon.describe`), caches
/// it per socket, and refreshes a stale cache once.
@Suite("svc-supervisor learns contracts from the running daemon", .blocking)
struct LearnedContractCLITests {
    /// A directory with `sockets/` and a cache folder, and `vt-testd test` serving in it.
    final class Served {
        let directory = TemporaryDirectory()
        /// The daemon, unless the test wants none running.
        let daemon: DaemonProcess?
        var sockets: String { directory.file("sockets") }
        var cache: String { directory.file("cache") }
        /// The cache file of test's socket: its absolute path, `%` and `/` escaped.
        var cacheFile: String {
            "\(cache)/verticals/describe/"
                + "\(sockets)/test.sock".replacing("%", with: "%25").replacing("/", with: "%2F") + ".describe"
        }

        init(running: Bool = true) throws {
            _ = mkdir(directory.file("sockets"), 0o755)
            daemon =
                running
                ? try DaemonProcess(
                    "vt-testd", ["test"], environment: ["VERTICALS_SOCKET_DIR": directory.file("sockets")])
                : nil
            if running {
                let socket = "\(sockets)/test.sock"
                // Listening, not merely bound: the file appears at bind, and a call in between is refused.
                #expect(eventually { isListening(unixSocket: socket) }, "vt-testd never listened on \(socket)")
            }
        }

        /// Runs `svc-supervisor ARGUMENTS --socket-dir sockets` with the cache here.
        func cli(_ arguments: [String]) throws -> CommandResult {
            try runCommand(
                "svc-supervisor", arguments + ["--socket-dir", sockets], environment: ["XDG_CACHE_HOME": cache],
                in: directory)
        }

        /// The description the cache holds, if it decodes.
        func cached() -> Daemon.Description? {
            DescriptionFile.read(cacheFile).flatMap { try? Daemon.Description(decoding: $0) }
        }

        /// Puts `description` in the cache, as an earlier run of the CLI would have.
        func cache(_ description: Daemon.Description) {
            DescriptionFile.write(description.encodedBody(), to: cacheFile)
        }

        /// Caches today's description less `field` of `message`: what an older vertical described.
        func cacheToday(without field: String, of message: String) throws {
            var old = today
            let index = try #require(old.messages.firstIndex { $0.name == message })
            old.messages[index].fields.removeAll { $0.name == field }
            cache(old)
        }

        /// What test describes itself as today.
        var today: Daemon.Description {
            let contract = TestEcho(service: "test")
            return ServiceDescription.make(
                name: "test", summary: "",
                operations: [contract.echo.descriptor, contract.fail.descriptor, contract.count.descriptor])
        }

        deinit { daemon?.stop() }
    }

    @Test func call_ofAContractItWasNotBuiltWith_printsTheTypedOutput_andCachesTheDescription() throws {
        let served = try Served()
        let result = try served.cli(["call", "test", "echo", #"{"text": "hello"}"#])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try TestEcho.EchoOutput(json: result.standardOutput)
        #expect(output.text == "hello" && output.servedBy == served.daemon.map { Int($0.pid) })
        #expect(
            served.cached()?.operations.contains { $0.name == "echo" } == true, "nothing cached at \(served.cacheFile)")

        let wrong = try served.cli(["call", "test", "echo", #"{"text": 5}"#])
        #expect(wrong.status == 64)
        #expect(wrong.standardError.contains("\"text\""), "\(wrong.standardError)")
    }

    @Test func call_withAWarmCache_asksForNoDescription() throws {
        let served = try Served()
        var marked = served.today
        marked.summary = "as cached"
        served.cache(marked)
        let result = try served.cli(["call", "test", "echo", #"{"text": "warm"}"#])
        #expect(result.status == 0, "\(result.standardError)")
        // Refreshed, the cache would hold test's own (empty) summary.
        #expect(served.cached()?.summary == "as cached")
    }

    @Test func call_whenTheCacheLacksTheOperation_refreshesIt_andTheCallSucceeds() throws {
        let served = try Served()
        var old = served.today
        old.operations.removeAll { $0.name == "echo" }
        served.cache(old)
        let result = try served.cli(["call", "test", "echo", #"{"text": "after refresh"}"#])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TestEcho.EchoOutput(json: result.standardOutput).text == "after refresh")
        #expect(served.cached()?.operations.contains { $0.name == "echo" } == true)
    }

    @Test func call_whenTheCacheLacksAField_refreshesIt_andTheCallSucceeds() throws {
        let served = try Served()
        try served.cacheToday(without: "delayMilliseconds", of: "test.EchoInput")
        let result = try served.cli(["call", "test", "echo", #"{"text": "x", "delayMilliseconds": 1}"#])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TestEcho.EchoOutput(json: result.standardOutput).text == "x")
    }

    @Test func call_whoseAnswerHasAFieldTheCachedOutputLacks_readsItWithTheFreshDescription() throws {
        let served = try Served()
        try served.cacheToday(without: "servedBy", of: "test.EchoOutput")
        let result = try served.cli(["call", "test", "echo", #"{"text": "newer"}"#])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TestEcho.EchoOutput(json: result.standardOutput).servedBy == served.daemon.map { Int($0.pid) })
        let refreshed = served.cached()?.messages.first { $0.name == "test.EchoOutput" }
        #expect(refreshed?.fields.contains { $0.name == "servedBy" } == true, "the cache was not refreshed")
    }

    /// A call, plain or streaming, of an operation only the cached (older) description had: the
    /// daemon refuses it, the CLI refreshes the cache and names what the vertical has today.
    @Test(arguments: [
        ("echo", "shout", #"{"text": "x"}"#, "test has no operation \"shout\"; it has: echo"),
        ("count", "countdown", #"{"count": 2}"#, "test has no operation \"countdown\""),
    ])
    func call_ofAnOperationOnlyAnOlderDescriptionHad_isRefusedByTheDaemon_thenNamedFromTheFreshOne(
        copying operation: String, as gone: String, input: String, excerpt: String
    ) throws {
        let served = try Served()
        var old = served.today
        var copy = try #require(old.operations.first { $0.name == operation })
        copy.name = gone
        old.operations.append(copy)
        served.cache(old)
        let result = try served.cli(["call", "test", gone, input])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(excerpt), "\(result.standardError)")
        #expect(served.cached()?.operations.contains { $0.name == gone } == false, "the cache was not refreshed")
    }

    @Test func call_withACorruptCacheFile_ignoresIt_andReplacesIt() throws {
        let served = try Served()
        DescriptionFile.write(Array("not a description".utf8), to: served.cacheFile)
        let result = try served.cli(["call", "test", "echo", #"{"text": "y"}"#])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(served.cached()?.name == "test")
    }

    @Test func operations_withNoDaemonRunning_saySo() throws {
        let served = try Served(running: false)
        let manifest = served.directory.file("suite.toml")
        writeText("[services.test]\nexecutable = \"vt-testd\"\nargs = [\"test\"]\n", to: manifest)
        let result = try served.cli(["operations", "--manifest", manifest])
        #expect(result.status == 69, "\(result.standardError)")
        #expect(
            result.standardOutput.contains("test: not running (no answer on \(served.sockets)/test.sock)"),
            "\(result.standardOutput)")
        let routes = try served.cli(["routes", "--manifest", manifest])
        #expect(routes.status == 69)
        #expect(routes.standardOutput.contains("test: not running"), "\(routes.standardOutput)")
    }

    @Test func operations_ofARunningVertical_listItsOperationsWithTheirFields() throws {
        let served = try Served()
        let result = try served.cli(["operations", "test"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("echo(text: string, delayMilliseconds: int = 0) -> test.EchoOutput"))
        #expect(!result.standardOutput.contains("daemon.health"), "built-ins are describe's, not operations'")
    }
}

/// Whole small files, for the cache a test plants and reads.
enum DescriptionFile {
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
    }
}
