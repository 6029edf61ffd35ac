import VerticalsContract
import VerticalsWire

/// Replays one consumer's interaction against a running provider: any product's provider
/// verification, given how it sets up a provider state and how it calls the provider. The
/// product keeps its states and its harness (which daemons it starts); this is the check.
public enum ProviderVerification {
    /// Every way `interaction` of `contract` is not honoured by `provider`; empty when it is.
    ///
    /// - Parameters:
    ///   - interaction: what the consumer sends and expects back.
    ///   - contract: the consumer's declaration the interaction is part of.
    ///   - provider: the provider's vertical name.
    ///   - operation: the provider's operation the interaction names, from the product's contracts
    ///     (nil: the provider no longer declares it).
    ///   - state: sets up a provider state through public operations and returns its variables,
    ///     or nil when the provider does not know the state.
    ///   - call: sends an Input body to the provider's operation and returns the Output body.
    nonisolated(nonsending) public static func problems(
        _ interaction: ConsumerContract.Interaction, of contract: ConsumerContract, provider: String,
        operation: OperationDescriptor?,
        state: (String) async throws -> [String: JSONValue]?,
        call: (OperationDescriptor, [UInt8]) async throws -> [UInt8]
    ) async -> [String] {
        let who =
            "\(contract.consumer) → \(provider).\(interaction.operation) (\"\(interaction.description)\", \(contract.path))"
        guard let operation else {
            return ["\(who): \(provider) no longer declares \(interaction.operation), which \(contract.consumer) calls"]
        }
        let variables: [String: JSONValue]
        do {
            guard let set = try await state(interaction.state) else {
                return [
                    "\(who): \(provider) has no provider state \"\(interaction.state)\" (add it to the provider's verification)"
                ]
            }
            variables = set
        } catch {
            return ["\(who): setting up \"\(interaction.state)\" failed: \(error)"]
        }
        let body: [UInt8]
        do {
            let input = try interaction.input.substituting(variables)
            body = try MessageValue(json: input, as: operation.input.schema).encoded(as: operation.input.schema)
        } catch {
            return ["\(who): the consumer's input is not a \(operation.input.schema.name) today: \(error)"]
        }
        do {
            let reply = try await call(operation, body)
            guard let expected = interaction.output else {
                return ["\(who): expected error \(interaction.error ?? "?"), the provider answered with an Output"]
            }
            let output = try MessageValue(decoding: reply, as: operation.output.schema).json(
                as: operation.output.schema)
            if let mismatch = try expected.substituting(variables).subsetMismatch(
                in: output, path: operation.output.schema.name)
            {
                return ["\(who): \(mismatch)"]
            }
            return []
        } catch let error as ServiceError {
            guard let expected = interaction.error else {
                return ["\(who): expected an Output, the provider answered \(error)"]
            }
            return error.code.wireName == expected ? [] : ["\(who): expected error \(expected), got \(error)"]
        } catch {
            return ["\(who): \(error)"]
        }
    }
}
