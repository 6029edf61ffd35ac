import ArgumentParser
import Glibc
import IOInterface
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// `svc-supervisor call SERVICE OPERATION [JSON]`: one typed call to a vertical, JSON in and out.
///
/// The JSON is checked against the operation's Input schema before anything is sent, so a
/// wrong field is named with the reason and nothing reaches the vertical.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a vertical's operation with a JSON Input and print the JSON Output.",
        discussion: """
            Examples:
              svc-supervisor call clinics nearest '{"latitude": 51.5, "longitude": -0.12, "limit": 3}'
              echo '{"email": "ada@example.org", "password": "…"}' | svc-supervisor call identity login -
            Exit status: 0 on success, 1 when the vertical answers with an error, 64 for bad usage or JSON,
            69 when the vertical cannot be reached, 77 when the operation needs a token and nobody is logged in.
            When the Input has a required "token" and the JSON gives none, the token of `svc-supervisor login` is used.
            """)

    @Argument(help: "The vertical, e.g. clinics.")
    var service: String

    @Argument(help: "The operation, e.g. nearest.")
    var operation: String

    @Argument(help: "The Input as JSON; '-' reads standard input. Default: {}.")
    var json: String = "{}"

    @OptionGroup var connection: VerticalConnectionOptions

    func validate() throws {
        guard Contracts.operation("\(service).\(operation)") != nil else {
            throw ValidationError(Self.unknown(service: service, operation: operation))
        }
    }

    func run() async throws {
        try await ControlClient.reporting { try await perform() }
    }

    private func perform() async throws {
        let descriptor = Contracts.operation("\(service).\(operation)")!
        let text = json == "-" ? Self.readStandardInput() : json
        let schema = descriptor.input.schema
        let document: JSONValue
        do { document = try JSONValue(parsing: text) } catch {
            throw CLIError(status: 64, "\(descriptor.fullName) takes \(schema.name) as its input: not JSON: \(error)")
        }
        let input: MessageValue
        do {
            input = try MessageValue(json: try TokenAttacher.forCurrentUser(schema: schema).attach(to: document), as: schema)
            try schema.requireKnownEnumerations(inBody: try input.encoded(as: schema))
        } catch let error as WireValueError {
            throw CLIError(status: 64, "\(descriptor.fullName) takes \(schema.name) as its input: \(error)")
        }
        if let event = descriptor.event {
            // A stream: its events, one JSON line each, as they come.
            try await StreamCaller.printEvents(descriptor, event: event, input, connection: connection)
            return
        }
        print(try await VerticalCaller.callJSON(descriptor, input, connection: connection))
    }

    static func unknown(service: String, operation: String) -> String {
        guard let contract = Contracts.all.first(where: { $0.name == service }) else {
            return "no vertical named \"\(service)\"; known: \(Contracts.all.map { $0.name }.joined(separator: ", "))"
        }
        return "\(service) has no operation \"\(operation)\"; it has: "
            + contract.operations.map { $0.name }.joined(separator: ", ")
    }

    static func readStandardInput() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A failure the CLI reports on standard error with its own exit status.
struct CLIError: Error, CustomStringConvertible {
    let status: Int32
    let description: String

    init(status: Int32, _ description: String) {
        self.status = status
        self.description = description
    }
}
