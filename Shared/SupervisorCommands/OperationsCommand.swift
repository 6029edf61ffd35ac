import ArgumentParser
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor operations [SERVICE]`: what can be called, as the running verticals describe
/// it (`daemon.describe`), with the doc of each Input field.
struct OperationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operations",
        abstract: "List every running vertical's operations with their Input fields and what each field means.",
        discussion: """
            Each vertical is asked (daemon.describe), so the list is what the running versions serve; the CLI
            knows no contract at build time. Without SERVICE: every vertical the supervisor runs, the
            manifest's (--manifest) and those with a socket, with a line for each one that does not answer.
            Exit status: 0 when every vertical asked answered, 64 for an unknown vertical, 69 when one does not answer.
            """)

    @Argument(help: "Only this vertical.")
    var service: String?

    @OptionGroup var options: ListingOptions

    func run() async throws {
        try await ControlClient.reporting {
            let listed = try await LearnedListing.contracts(
                service: service, manifest: options.manifest, connection: options.connection)
            for entry in listed.entries {
                guard let contract = entry.contract else {
                    Terminal.print("\(entry.name): \(entry.silence)")
                    continue
                }
                Terminal.print(lines: Self.text(contract))
            }
            try listed.finish()
        }
    }

    /// One vertical's operations: a line each with its Input fields, its summary, then each field's doc.
    static func text(_ contract: DescribedContract) -> [TerminalText] {
        var lines: [TerminalText] = ["\(contract.name) — \(contract.summary)"]
        for operation in contract.ownOperations {
            let fields = operation.input.schema.fields.map { field in
                switch field.presence {
                case .required: "\(field.name): \(field.type)"
                case .optional: "\(field.name)?: \(field.type)"
                case .defaulted(let value): "\(field.name): \(field.type) = \(value)"
                case .repeated: "\(field.name): [\(field.type)]"
                }
            }
            let output = operation.event.map { "stream of \($0.schema.name)" } ?? operation.output.schema.name
            lines.append("  \(operation.name)(\(fields.joined(separator: ", "))) -> \(output)")
            lines.append("      \(operation.summary)")
            // Each Input field's doc, from its line in the contract file (docs/CONTRACTS.md).
            for field in operation.input.schema.fields where !field.doc.isEmpty {
                lines.append("        \(field.name): \(field.doc)")
            }
        }
        return lines
    }
}
