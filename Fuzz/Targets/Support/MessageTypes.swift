import IOInterface
import Wire

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
}
