import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// A call of one vertical's operation over its learned contract (`call`, `open`, `login`,
/// `admin`): the cached description first, so a warm call is one round trip; refreshed, and the
/// call made again, once, when the answer shows the cache stale.
///
/// Stale means: the cache lacks the operation, a field or an enumeration case the user asked
/// for (refreshed before failing locally), or the vertical answers `unimplemented` (no such
/// operation) or `invalidInput` (a field or case the cache lacks) and describes itself
/// differently now. When the fresh description is the cached one, the first answer stands, so
/// a refusal about the data itself is reported once, as the vertical gave it.
///
/// ```swift
/// let reply = try await LearnedCall(learned: learned, service: "clinics").run(label: "clinics.nearest") { contract in
///     try await LearnedCall.send(try LearnedCall.operation("nearest", in: contract), input, of: contract, learned: learned)
/// }
/// ```
struct LearnedCall {
    /// Where the contract comes from.
    let learned: LearnedContracts
    /// The vertical called.
    let service: String

    /// What `attempt` throws when what it needs may be missing from a stale contract: the
    /// refusal to report if a fresh description does not change the picture.
    ///
    /// Its ``code`` is `staleContract`; its message and details are the refusal's, and the
    /// refusal is its cause.
    struct Stale: CodedError {
        /// What kind of failure it is.
        typealias Code = ErrorKind<Stale>

        /// The refusal to report.
        let refusal: CLIError

        /// What kind of failure it is: always `staleContract`.
        var code: Code { .staleContract }
        /// The refusal's message.
        var message: String { refusal.message }
        /// The refusal's details.
        var details: [ErrorDetail] { refusal.details }
        /// The refusal.
        var cause: (any Error)? { refusal }
    }

    /// Runs `attempt` over the cached contract (fetched when there is none), then, if it throws
    /// ``Stale`` and the contract came from the cache, once more over a fresh one.
    func run<Result>(label: String, _ attempt: (DescribedContract) async throws -> Result) async throws -> Result {
        var (contract, fresh) = try await learned.cachedOrFetched(service, label: label)
        while true {
            do {
                return try await attempt(contract)
            } catch let stale as Stale {
                guard !fresh else { throw stale.refusal }
                fresh = true
                // Not answering now: what the cache says is all there is to go on.
                guard let newer = try? await learned.fetch(service, label: label),
                    newer.description.encodedBody() != contract.description.encodedBody()
                else { throw stale.refusal }
                contract = newer
            }
        }
    }

    /// `name` in `contract`; ``Stale`` (exit 64, listing what it has) when it has no such operation.
    static func operation(_ name: String, in contract: DescribedContract) throws -> DescribedOperation {
        guard let operation = contract.operation(named: name) else {
            throw Stale(
                refusal: CLIError(
                    .notFound, status: 64,
                    "\(contract.name) has no operation \"\(name)\"; it has: \(contract.ownOperations.map(\.name).joined(separator: ", "))"
                ))
        }
        return operation
    }

    /// `document` as `operation`'s Input; ``Stale`` (exit 64, naming the field) when it does not fit.
    static func input(_ document: JSONValue, for operation: DescribedOperation) throws -> MessageValue {
        let schema = operation.input.schema
        do {
            let input = try MessageValue(json: document, as: schema)
            try schema.requireKnownEnumerations(inBody: try input.encoded(as: schema))
            return input
        } catch {
            throw Stale(
                refusal: CLIError(
                    .invalidInput, status: 64, "\(operation.fullName) takes \(schema.name) as its input: \(error)",
                    cause: error))
        }
    }

    /// Calls `operation` of `contract`'s vertical (a `daemon.*` built-in goes to that vertical
    /// too) with `input` and returns its Output; a refusal that may come from a stale contract
    /// (`unimplemented`, `invalidInput`) is ``Stale``.
    static func send(
        _ operation: DescribedOperation, _ input: MessageValue, of contract: DescribedContract,
        learned: LearnedContracts
    ) async throws -> MessageValue {
        try decode(try await sendRaw(operation, input, of: contract, learned: learned), as: operation)
    }

    /// ``send(_:_:of:learned:)``'s call, answering the Output's bytes.
    static func sendRaw(
        _ operation: DescribedOperation, _ input: MessageValue, of contract: DescribedContract,
        learned: LearnedContracts
    ) async throws -> [UInt8] {
        let sockets = learned.sockets(for: contract.name)
        do {
            return try await VerticalCaller.exchange(
                service: contract.name, operation: operation.fullName,
                body: try input.encoded(as: operation.input.schema), sockets: sockets,
                timeout: learned.connection.deadline)
        } catch let error as ServiceError {
            let refusal = await VerticalCaller.refusal(
                error, service: contract.name, label: operation.fullName, sockets: sockets)
            if error.code == .unimplemented || error.code == .invalidInput { throw Stale(refusal: refusal) }
            throw refusal
        }
    }

    /// `reply` as `operation`'s Output.
    static func decode(_ reply: [UInt8], as operation: DescribedOperation) throws -> MessageValue {
        do {
            return try MessageValue(decoding: reply, as: operation.output.schema)
        } catch {
            throw CLIError(
                .badAnswer, status: 76,
                "\(operation.fullName) answered a body that is not a \(operation.output.schema.name): \(error)",
                cause: error)
        }
    }

    /// `reply` as `operation`'s Output, read with `service`'s fresh description when it carries
    /// a field the cached one lacks (a newer Output: the call is not made again, only its answer
    /// read with the newer schema); as it is when the vertical does not describe itself now.
    static func newestOutput(
        _ reply: [UInt8], of operation: DescribedOperation, service: String, learned: LearnedContracts
    ) async throws -> (MessageValue, schema: MessageSchema) {
        let schema = operation.output.schema
        guard hasUnknownFields(reply, as: schema), let fresh = try? await learned.fetch(service),
            let newer = fresh.operation(named: operation.service == service ? operation.name : operation.fullName)
        else { return (try decode(reply, as: operation), schema) }
        return (try decode(reply, as: newer), newer.output.schema)
    }

    /// Whether `reply` has a top-level field `schema` does not list.
    static func hasUnknownFields(_ reply: [UInt8], as schema: MessageSchema) -> Bool {
        var reader = BodyReader(ByteReader(reply))
        do {
            while let tag = try reader.nextTag() {
                if schema.field(tag: tag) == nil { return true }
                try reader.skip()
            }
        } catch {
            return false
        }
        return false
    }
}

extension ErrorKind where Domain == LearnedCall.Stale {
    /// The cached contract may lack what the call needs: refreshed once before it is reported.
    static var staleContract: Self { Self("staleContract") }
}
