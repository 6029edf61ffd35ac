import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// `--describe`: what a build says it serves and what it was compiled against, printed as JSON and
/// read back with a typed error on anything malformed.
@Suite("A build describes itself (--describe)", .blocking)
struct BuildDescriptionTests {
    @Test func callees_madeFromOperations_keepTheirSchemas_andOnesGivenByName_sayTheyHaveNone() {
        let calls = Callees(TestEcho(service: "beta").echo)
        let named = Callees(names: ["gamma.lookup", "delta"])

        #expect(calls.builtAgainst.map(\.name) == ["beta"])
        #expect(calls.builtAgainst.first?.operations.map(\.name) == ["echo"])
        #expect(calls.builtAgainst.first?.messages.contains { $0.name == TestEcho.EchoInput.schema.name } == true)
        #expect(calls.undescribedEntries.isEmpty)
        #expect(named.builtAgainst.isEmpty)
        #expect(named.undescribedEntries == ["gamma.lookup", "delta"])
        #expect(Callees(TestEcho(service: "beta").echo) == calls)
    }

    @Test func printed_readsBackAsTheSameDescription() throws {
        let build = BuildDescription.of(
            name: "alpha", summary: "Alpha.", operations: TestEcho(service: "alpha").operations,
            calls: Callees(TestEcho(service: "beta").echo))

        let read = try BuildDescription.read(Array(try build.printed().utf8))

        #expect(read == build)
        #expect(read.callsDeclared)
        #expect(
            read.serves.operations.contains { $0.service == "daemon" && $0.name == "describe" },
            "built-ins are served too")
        #expect(read.builtAgainst("beta") != nil && read.calls("beta") && !read.calls("gamma"))
    }

    @Test func aBuildThatDoesNotSayItsCalls_saysSo() throws {
        let build = BuildDescription.of(name: "alpha", summary: "", operations: [], calls: nil)
        #expect(try BuildDescription.read(Array(try build.printed().utf8)).callsDeclared == false)
    }

    static let malformed: [(String, [UInt8], BuildDescription.ReadError.Reason)] = [
        ("nothing", [], .empty),
        ("not UTF-8", [0x7B, 0xFF, 0x7D], .malformed),
        ("not JSON", Array("serves: alpha".utf8), .malformed),
        ("no serves", Array("{}".utf8), .malformed),
        ("a wrong type", Array(#"{"serves": {"name": 3}}"#.utf8), .malformed),
        (
            "a field table that does not read back",
            Array(
                #"{"serves": {"name": "a", "messages": [{"name": "a.M", "fields": [{"tag": 1, "name": "x", "type": "message a.Missing", "presence": "required"}]}]}}"#
                    .utf8),
            .malformed
        ),
        ("nested without end", Array(String(repeating: #"{"serves": "#, count: 10_000).utf8), .malformed),
        ("one byte over the bound", [UInt8](repeating: 0x20, count: BuildDescription.maxBytes + 1), .tooLarge),
    ]

    @Test("malformed output is a typed error", arguments: malformed)
    func read_refusesMalformedOutput(name: String, bytes: [UInt8], reason: BuildDescription.ReadError.Reason) {
        #expect(throws: BuildDescription.ReadError.self) { try BuildDescription.read(bytes) }
        do {
            _ = try BuildDescription.read(bytes)
        } catch {
            #expect(error.reason == reason, "\(name): \(error)")
        }
    }

    @Test func aRealDaemon_describesItsBuild_beforeOpeningAnything() throws {
        let directory = TemporaryDirectory()
        // No socket folder, no state directory: --describe must not need them.
        let result = try runCommand(
            "\(DaemonProcess.productsDirectory)/vt-testd", ["alpha", "--describe"], in: directory)

        #expect(result.status == 0, "\(result.standardError)")
        let build = try BuildDescription.read(Array(result.standardOutput.utf8))
        #expect(build.serves.name == "alpha")
        #expect(build.serves.operations.contains { $0.name == "echo" && $0.service == "alpha" })
        #expect(build.builtAgainst("beta")?.operations.map(\.name) == ["echo"])
    }
}
