import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// A call of "the operation that does X" (``OperationMark``) without knowing at build time which
/// vertical serves it: `login` calls the one marked `issuesSession`, `admin create` the one marked
/// `createsFirstAdmin`. The vertical is the one the manifest names to receive that kind of secret
/// (``SecretRecipients``: a service's `receives`, served by the supervisor's `status` or written
/// beside the systemd units), never one chosen from what verticals describe or a cache holds. Its
/// description must carry the mark and claim no mark the manifest gives another vertical.
///
/// Every connection these calls make is checked first (``CredentialCallee``): they carry secrets
/// and session tokens, which a socket planted where the CLI looks must never receive.
enum MarkedCall {
    /// Calls the operation marked `mark` with the Input `input` builds from its learned schema
    /// (``MarkedInput``: once, after the vertical is found and checked, its secrets read for
    /// `subject`); returns it with its Output as JSON.
    static func call(
        _ mark: OperationMark, _ input: MarkedInput, subject: String, connection: VerticalConnectionOptions
    ) async throws -> (operation: DescribedOperation, output: JSONValue) {
        let callee = await CredentialCallee.find(connection: connection)
        let recipients = try SecretRecipients.find(suite: callee.suite)
        let service = try recipients.service(for: mark)
        return try await VerticalCaller.$calleeCheck.withValue(callee.check) {
            let learned = LearnedContracts(connection: connection)
            let described = try await server(of: mark, service: service, recipients: recipients, learned: learned)
            guard let operation = described.operation(marked: mark) else {
                throw CLIError(.unsupported, status: 69, "\(service) no longer serves an operation marked \(mark)")
            }
            let members = try input.members(for: operation, subject: subject)
            return try await LearnedCall(learned: learned, service: service).run(label: "\(service) (\(mark))") {
                contract in
                if let disagreement = recipients.disagreement(of: service, contract) {
                    throw CLIError(.untrusted, status: 77, disagreement)
                }
                guard let operation = contract.operation(marked: mark) else {
                    throw LearnedCall.Stale(
                        refusal: CLIError(
                            .unsupported, status: 69, "\(service) no longer serves an operation marked \(mark)"))
                }
                let input = try LearnedCall.input(.object(members), for: operation)
                let output = try await LearnedCall.send(operation, input, of: contract, learned: learned)
                return (operation, try output.json(as: operation.output.schema))
            }
        }
    }

    /// The description of `service`, the vertical the manifest names to receive what `mark`
    /// carries, asked of it now (never a cache: it decides what is read from the person).
    /// Refused when it lacks the mark, or claims a mark the manifest gives another vertical.
    static func server(
        of mark: OperationMark, service: String, recipients: SecretRecipients, learned: LearnedContracts
    ) async throws -> DescribedContract {
        let described: DescribedContract
        do {
            described = try await learned.fetch(service, label: "\(service) (\(mark))")
        } catch let error as CLIError where (error.cause as? ServiceError)?.code == .permissionDenied {
            // The listener check refused it (``CredentialCallee``): nothing was sent, and that is news.
            throw CLIError(.untrusted, status: 77, error.description, details: error.details, cause: error.cause)
        }
        if let disagreement = recipients.disagreement(of: service, described) {
            throw CLIError(.untrusted, status: 77, disagreement)
        }
        guard described.operation(marked: mark) != nil else {
            throw CLIError(
                .unsupported, status: 69,
                "\(service), which the manifest names to receive \"\(SecretKind(mark: mark).map(\.rawValue) ?? mark.rawValue)\" "
                    + "(\(recipients.source)), serves no operation marked \(mark)")
        }
        return described
    }
}

extension JSONValue {
    /// The member `key` of an object, as a string (an enumeration case is one too).
    func string(_ key: String) -> String? {
        guard case .object(let members) = self,
            case .string(let value)? = members.first(where: { $0.key == key })?.value
        else { return nil }
        return value
    }

    /// The member `key` of an object, as a whole number.
    func number(_ key: String) -> Int64? {
        guard case .object(let members) = self, case .number(let text)? = members.first(where: { $0.key == key })?.value
        else { return nil }
        return Int64(text)
    }

    /// The member `key` of an object, as a list of strings.
    func strings(_ key: String) -> [String] {
        guard case .object(let members) = self,
            case .array(let values)? = members.first(where: { $0.key == key })?.value
        else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
