import ArgumentParser
import IOInterface
import VerticalsContract

/// `svc-supervisor operations [SERVICE]`: what can be called, from the contracts this build knows,
/// with the doc of each Input field.
struct OperationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operations",
        abstract: "List every vertical's operations with their Input fields and what each field means.")

    @Argument(help: "Only this vertical.")
    var service: String?

    func validate() throws {
        if let service, !Contracts.all.contains(where: { $0.name == service }) {
            throw ValidationError(
                "no vertical named \"\(service)\"; known: \(Contracts.all.map { $0.name }.joined(separator: ", "))")
        }
    }

    func run() throws {
        for contract in Contracts.all where service == nil || contract.name == service {
            print("\(contract.name) — \(contract.summary)")
            for operation in contract.operations {
                let fields = operation.input.schema.fields.map { field in
                    switch field.presence {
                    case .required: "\(field.name): \(field.type)"
                    case .optional: "\(field.name)?: \(field.type)"
                    case .defaulted(let value): "\(field.name): \(field.type) = \(value)"
                    case .repeated: "\(field.name): [\(field.type)]"
                    }
                }
                let output = operation.event.map { "stream of \($0.schema.name)" } ?? operation.output.schema.name
                print("  \(operation.name)(\(fields.joined(separator: ", "))) -> \(output)")
                print("      \(operation.summary)")
                // Each Input field's doc, from its line in the contract file (docs/CONTRACTS.md).
                for field in operation.input.schema.fields where !field.doc.isEmpty {
                    print("        \(field.name): \(field.doc)")
                }
            }
        }
    }
}
