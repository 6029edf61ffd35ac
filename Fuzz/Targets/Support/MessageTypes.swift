import IOInterface
import VerticalsClient
import VerticalsContract
import VerticalsWire

/// Every message type the suite puts on the wire, in a fixed order (so byte 0 of an input
/// always means the same type): the error body, then each contract's operations' Input and Output.
public enum MessageTypes {
    /// The types, error body first.
    public static let all: [any WireMessage.Type] = {
        var types: [any WireMessage.Type] = [ServiceError.self, Empty.self]
        var seen: Set<String> = [ServiceError.schema.name, Empty.schema.name]
        for contract in Contracts.all + Contracts.control + Contracts.builtin {
            for operation in contract.operations {
                for type in [operation.input, operation.output] where seen.insert(type.schema.name).inserted {
                    types.append(type)
                }
            }
        }
        return types
    }()

    /// The schema of each of ``all`` (same order) as a client that never linked it sees it:
    /// written out as `describe` does and read back (``ServiceDescription/catalog(of:)``).
    /// The generic codec must treat it exactly as the compiled one.
    public static let described: [MessageSchema] = {
        let compiled = SchemaCatalog(reachableFrom: all.map { $0.schema })
        let description = Daemon.Description(
            name: "fuzz", summary: "", operations: [], messages: compiled.messages.map(ServiceDescription.info),
            enums: compiled.enumerations.map(ServiceDescription.info))
        do {
            let catalog = try ServiceDescription.catalog(of: description)
            return all.map { catalog.message(named: $0.schema.name)! }
        } catch {
            preconditionFailure("the suite's own schemas do not read back from describe: \(error)")
        }
    }()

    /// Whether two generic readings of one input agree: both refused, or both accepted with
    /// the same body (compared as bytes, so that a NaN equals itself).
    public static func sameReading(_ a: MessageValue?, _ b: MessageValue?, as schema: MessageSchema) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): (try? a.encoded(as: schema)) == (try? b.encoded(as: schema))
        default: false
        }
    }
}
