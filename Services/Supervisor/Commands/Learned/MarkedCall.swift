import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// A call of "the operation that does X" (``OperationMark``) without knowing at build time which
/// vertical serves it: `login` calls the one marked `issuesSession`, `admin create` the one marked
/// `createsFirstAdmin`. The first of the suite's verticals (``SuiteVerticals``) whose cached
/// description has the mark is called (one round trip); else each is asked until one has it.
enum MarkedCall {
    /// Calls the operation marked `mark` with an Input of `members` (checked against its learned
    /// schema by `check` first, if given) and returns it with its Output as JSON.
    static func call(
        _ mark: OperationMark, _ members: [(key: String, value: JSONValue)], connection: VerticalConnectionOptions,
        check: (DescribedOperation) throws -> Void = { _ in }
    ) async throws -> (operation: DescribedOperation, output: JSONValue) {
        let learned = LearnedContracts(connection: connection)
        let service = try await server(of: mark, learned: learned)
        return try await LearnedCall(learned: learned, service: service).run(label: "\(service) (\(mark))") { contract in
            guard let operation = contract.operation(marked: mark) else {
                throw LearnedCall.Stale(
                    refusal: CLIError(status: 69, "\(service) no longer serves an operation marked \(mark)"))
            }
            try check(operation)
            let input = try LearnedCall.input(.object(members), for: operation)
            let output = try await LearnedCall.send(operation, input, of: contract, learned: learned)
            return (operation, try output.json(as: operation.output.schema))
        }
    }

    /// The vertical that serves the operation marked `mark`, found by the cache, else by asking
    /// each of the suite's verticals: the supervisor's list (a vertical on a TCP endpoint too),
    /// those `VERTICALS_ENDPOINT_*` names, and the socket folder's. Not the checkout's manifest:
    /// reading it hands the command over to svc-supervisor-engine, which would find the password
    /// already read from standard input.
    static func server(of mark: OperationMark, learned: LearnedContracts) async throws -> String {
        let suite = await SuiteVerticals.find(connection: learned.connection, manifest: nil, checkoutManifest: false)
        let names = suite.names
        if let known = names.first(where: { learned.cached($0)?.operation(marked: mark) != nil }) { return known }
        for found in await learned.contracts(of: names, fresh: true) where found.contract.operation(marked: mark) != nil {
            return found.contract.name
        }
        throw CLIError(
            status: 69,
            "no running vertical serves an operation marked \(mark) (asked: "
                + (names.isEmpty ? "none; \(suite.known)" : names.joined(separator: ", "))
                + ")")
    }
}

extension JSONValue {
    /// The member `key` of an object, as a string (an enumeration case is one too).
    func string(_ key: String) -> String? {
        guard case .object(let members) = self, case .string(let value)? = members.first(where: { $0.key == key })?.value
        else { return nil }
        return value
    }

    /// The member `key` of an object, as a list of strings.
    func strings(_ key: String) -> [String] {
        guard case .object(let members) = self, case .array(let values)? = members.first(where: { $0.key == key })?.value
        else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
