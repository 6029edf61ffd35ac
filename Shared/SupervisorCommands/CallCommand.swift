import ArgumentParser
import Glibc
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor call SERVICE OPERATION [JSON]`: one typed call to a vertical, JSON in and out.
///
/// The CLI knows no contract at build time: it learns SERVICE's operations and their schemas
/// from the running daemon (`daemon.describe`), cached per socket (``LearnedContracts``). The
/// JSON is checked against the operation's Input schema before anything is sent, so a wrong
/// field is named with the reason and nothing reaches the vertical.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a vertical's operation with a JSON Input and print the JSON Output.",
        discussion: """
            Examples:
              svc-supervisor call orders search '{"query": "lamp", "limit": 3}'
              echo '{"name": "Ada"}' | svc-supervisor call greeter hello -
            The operations and their Input/Output fields come from the running vertical (daemon.describe),
            cached per socket in $XDG_CACHE_HOME/verticals/describe (else ~/.cache/verticals/describe) and
            asked again when the vertical's answer shows the cache out of date; so any vertical of the suite
            can be called, including one added after this CLI was built.
            Exit status: 0 on success, 1 when the vertical answers with an error, 64 for bad usage or JSON,
            69 when the vertical cannot be reached, 77 when the operation needs a token and nobody is logged in.
            When the Input has a required "token" and the JSON gives none, the token of `svc-supervisor login` is used.
            With --trace the call starts a sampled trace: its id and waterfall (from the daemons' span rings, as
            `svc-supervisor trace ID` prints them) follow on standard error, so standard output stays the Output.
            """)

    @Argument(help: "The vertical, as the manifest names it.")
    var service: String

    @Argument(help: "The operation, e.g. nearest.")
    var operation: String

    @Argument(help: "The Input as JSON; '-' reads standard input. Default: {}.")
    var json: String = "{}"

    @OptionGroup var connection: VerticalConnectionOptions

    @Flag(name: .long, help: "Start a sampled trace and print its id and waterfall on standard error.")
    var trace = false

    func run() async throws {
        try await ControlClient.reporting {
            guard trace else { return try await perform(traceparent: nil) }
            let root = CallTrace()
            do {
                try await perform(traceparent: root.identity.traceparent)
            } catch {
                await root.report(connection: connection, service: service)
                throw error
            }
            await root.report(connection: connection, service: service)
        }
    }

    /// Makes the call; `traceparent` goes with the operation's request only (not with the
    /// `daemon.describe` that learns its contract).
    private func perform(traceparent: String?) async throws {
        let text = json == "-" ? Self.readStandardInput() : json
        try await UnknownVertical.refuse(service, sockets: connection.sockets)
        let learned = LearnedContracts(connection: connection)
        let label = "\(service).\(operation)"
        let output = try await LearnedCall(learned: learned, service: service).run(label: label) {
            contract -> (DescribedOperation, [UInt8])? in
            let descriptor = try LearnedCall.operation(operation, in: contract)
            let schema = descriptor.input.schema
            let document: JSONValue
            do { document = try JSONValue(parsing: text) } catch {
                throw CLIError(
                    .invalidInput, status: 64,
                    "\(descriptor.fullName) takes \(schema.name) as its input: not JSON: \(error)",
                    cause: error)
            }
            let attacher = TokenAttacher.forCurrentUser(schema: schema)
            let attached = try attacher.attach(to: document)
            let input = try LearnedCall.input(attached, for: descriptor)
            // A token or a secret goes only to a listener that passes the check `login` makes.
            return try await CredentialCallee.checked(if: attacher.carriesCredential(attached), connection: connection)
            {
                if let event = descriptor.event {
                    // A stream: its events, one JSON line each, as they come.
                    try await StreamCaller.printEvents(descriptor, event: event, input, of: contract, learned: learned)
                    return nil
                }
                let reply = try await VerticalCaller.$traceparent.withValue(traceparent) {
                    try await LearnedCall.sendRaw(descriptor, input, of: contract, learned: learned)
                }
                return (descriptor, reply)
            }
        }
        if let (descriptor, reply) = output {
            let (value, schema) = try await LearnedCall.newestOutput(
                reply, of: descriptor, service: service, learned: learned)
            Terminal.json(try value.jsonText(as: schema, pretty: true))
        }
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
