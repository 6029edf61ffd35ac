import ArgumentParser
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor describe SERVICE [--json]`: what a running vertical serves, asked of the
/// daemon itself over its socket (`daemon.describe`), like `varlinkctl introspect`: its
/// operations with their Input/Output fields, error codes and the types they reach.
struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Ask a running vertical for its operations, their Input/Output fields and error codes.",
        discussion: """
            The daemon is asked, so it shows what the running version really serves (built-in daemon.*
            operations included, which `operations` leaves out); `call` learns its schemas the same way.
            `describe supervisor` asks the supervisor's control socket, <run dir>/supervisor.sock.
            Exit status: 0 on success, 1 when the daemon answers with an error, 64 when the suite has no such
            vertical, 69 when it cannot be reached.
            """)

    @Argument(help: "The vertical, as the manifest names it.")
    var service: String

    @Flag(help: "Print the description as JSON (daemon.Description).")
    var json = false

    @OptionGroup var connection: VerticalConnectionOptions

    /// Where SERVICE's socket is: the run directory for the supervisor; for a vertical, the
    /// connection's socket folder.
    var sockets: SocketDirectory {
        service == Supervisor.name ? SocketDirectory(connection.suite.path) : connection.sockets
    }

    func run() async throws {
        try await ControlClient.reporting { try await UnknownVertical.refuse(service, sockets: sockets) }
        let loop = try EventLoop(name: "svc-supervisor-describe")
        let client = ServiceClient(loop: loop, sockets: sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        let description: Daemon.Description
        let schemas: SchemaCatalog
        do {
            let reply = try await client.callRaw(
                service: service, operation: Daemon.describe.fullName, body: Empty().encodedBody(),
                timeout: connection.deadline)
            description = try Daemon.Description(decoding: reply)
            schemas = try ServiceDescription.catalog(of: description)
            // What `call` learns from: the freshest description there is.
            let learned = LearnedContracts(connection: connection)
            learned.cache.store(description, endpoint: learned.endpoint(of: service))
        } catch let error as ServiceError {
            Terminal.error("error: \(service) did not describe itself: \(error.code): \(error.message)")
            throw ExitCode(error.code == .unavailable ? 69 : 1)
        } catch {
            Terminal.error("error: \(service) answered daemon.describe with a body that is not a description: \(error)")
            throw ExitCode(1)
        }
        if json {
            Terminal.json(try description.jsonString(pretty: true))
        } else {
            Terminal.print(lines: DescriptionText.render(description, schemas: schemas))
        }
    }
}

/// The human-readable form of a ``Daemon/Description``, its messages read back as the same
/// ``MessageSchema``s `call` validates with. Every name and doc in it is the vertical's, so each
/// line is a ``TerminalText``.
enum DescriptionText {
    static func render(_ description: Daemon.Description, schemas: SchemaCatalog) -> [TerminalText] {
        var lines: [TerminalText] = ["\(description.name) — \(description.summary)", "", "operations:"]
        for operation in description.operations {
            let input =
                schemas.message(named: operation.input)?.fields.map(signature).joined(separator: ", ")
                ?? operation.input
            // A built-in travels as `daemon.<name>`; the vertical's own operations as `<vertical>.<name>`.
            let name = operation.service == description.name ? operation.name : "\(operation.service).\(operation.name)"
            let output = operation.event.map { "stream of \($0)" } ?? operation.output
            lines.append("  \(name)(\(input)) -> \(output)")
            lines.append("      \(operation.summary)")
            if !operation.errors.isEmpty {
                lines.append("      errors: \(operation.errors.map(\.wireName).joined(separator: ", "))")
            }
            if !operation.marks.isEmpty { lines.append("      marks: \(markText(operation.marks))") }
        }
        lines += ["", "messages:"]
        for message in schemas.messages {
            lines.append(message.doc.isEmpty ? "  \(message.name)" : "  \(message.name) — \(message.doc)")
            for field in message.fields {
                lines.append(
                    field.doc.isEmpty
                        ? "    \(field.tag)  \(signature(field))"
                        : "    \(field.tag)  \(signature(field))  — \(field.doc)")
            }
        }
        if !schemas.enumerations.isEmpty {
            lines += ["", "enums:"]
            for enumeration in schemas.enumerations {
                lines.append("  \(enumeration.name): \(enumeration.cases.joined(separator: ", "))")
            }
        }
        return lines
    }

    /// An operation's marks, `operatorOnly` said in words: who may call it.
    static func markText(_ marks: [String]) -> String {
        marks.map {
            $0 == OperationMark.operatorOnly.rawValue
                ? "operatorOnly (only the operator: root, the operator group or the operator certificate)" : $0
        }.joined(separator: ", ")
    }

    /// `name: string`, `pid?: int`, `limit: int = 20`, `roles: [enum identity.Role]`.
    static func signature(_ field: FieldDescriptor) -> String {
        switch field.presence {
        case .optional: "\(field.name)?: \(field.type)"
        case .defaulted(let value):
            "\(field.name): \(field.type) = \(ServiceDescription.jsonText(of: value, type: field.type))"
        case .repeated: "\(field.name): [\(field.type)]"
        case .required: "\(field.name): \(field.type)"
        }
    }
}
