import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// A call of "the operation that does X" (``OperationMark``) without knowing at build time which
/// vertical serves it: `login` calls the one marked `issuesSession`, `admin create` the one marked
/// `createsFirstAdmin`. The vertical is one the suite names — the supervisor, the manifest or
/// `VERTICALS_ENDPOINT_*` (``SuiteVerticals/named``); only where none names any (systemd's socket
/// folder alone), one whose socket is there. The first whose cached description has the mark is
/// called (one round trip); else each is asked until one has it.
///
/// Every connection these calls make is checked first (``TrustedCallee``): they carry secrets
/// and session tokens, which a socket planted where the CLI looks must never receive. The
/// supervisor's control socket is checked the same way before its `status` is believed about
/// which process runs each vertical.
enum MarkedCall {
    /// Calls the operation marked `mark` with the Input `input` builds from its learned schema
    /// (``MarkedInput``: once, after the vertical is found and checked, its secrets read for
    /// `subject`); returns it with its Output as JSON.
    static func call(
        _ mark: OperationMark, _ input: MarkedInput, subject: String, connection: VerticalConnectionOptions
    ) async throws -> (operation: DescribedOperation, output: JSONValue) {
        // The supervisor is believed about which process is which vertical only when it passes the check itself.
        let suite = await SuiteVerticals.find(connection: connection, manifest: nil, supervisorCheck: TrustedCallee.check())
        let sockets = connection.sockets
        let rootPlaced = Set(suite.names.filter { name in
            guard case .unix(let path) = sockets.endpoint(for: name) else { return false }
            return RootPlacedSocket.isRootPlaced(path)
        })
        let check = TrustedCallee.check(supervised: suite.supervisedPIDs, rootPlaced: rootPlaced)
        return try await VerticalCaller.$calleeCheck.withValue(check) {
            let learned = LearnedContracts(connection: connection)
            let service = try await server(of: mark, learned: learned, suite: suite)
            let (described, _) = try await learned.cachedOrFetched(service, label: "\(service) (\(mark))")
            guard let operation = described.operation(marked: mark) else {
                throw CLIError(status: 69, "\(service) no longer serves an operation marked \(mark)")
            }
            let members = try input.members(for: operation, subject: subject)
            return try await LearnedCall(learned: learned, service: service).run(label: "\(service) (\(mark))") { contract in
                guard let operation = contract.operation(marked: mark) else {
                    throw LearnedCall.Stale(
                        refusal: CLIError(status: 69, "\(service) no longer serves an operation marked \(mark)"))
                }
                let input = try LearnedCall.input(.object(members), for: operation)
                let output = try await LearnedCall.send(operation, input, of: contract, learned: learned)
                return (operation, try output.json(as: operation.output.schema))
            }
        }
    }

    /// The vertical that serves the operation marked `mark`, found by the cache, else by asking
    /// each of the verticals `suite` names (``SuiteVerticals/named``: the supervisor's list, the
    /// manifest's, `VERTICALS_ENDPOINT_*`), else, where nothing names any, those with a socket in
    /// the socket folder. Found before anything is read from the person, so that reading the
    /// checkout's manifest may hand the command over to svc-supervisor-engine.
    static func server(of mark: OperationMark, learned: LearnedContracts, suite: SuiteVerticals) async throws -> String {
        let names = suite.named.isEmpty ? suite.names : suite.named
        if let known = names.first(where: { learned.cached($0)?.operation(marked: mark) != nil }) { return known }
        var refused: [TerminalText] = []
        for name in names {
            do {
                if try await learned.fetch(name).operation(marked: mark) != nil { return name }
            } catch let error as CLIError {
                // Not answering is common (a vertical stopped); a listener the check refused is news.
                if error.description.contains("\(ErrorCode.permissionDenied)") { refused.append(error.message) }
            }
        }
        let asked = names.isEmpty ? "none; \(suite.known)" : names.joined(separator: ", ")
        throw CLIError(
            status: refused.isEmpty ? 69 : 77,
            TerminalText(lines: ["no running vertical serves an operation marked \(mark) (asked: \(asked))"] + refused))
    }
}

extension JSONValue {
    /// The member `key` of an object, as a string (an enumeration case is one too).
    func string(_ key: String) -> String? {
        guard case .object(let members) = self, case .string(let value)? = members.first(where: { $0.key == key })?.value
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
        guard case .object(let members) = self, case .array(let values)? = members.first(where: { $0.key == key })?.value
        else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
