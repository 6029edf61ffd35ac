import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsWire

/// `make fuzz-live REPLAY=HEX`: one frame a finding printed, sent again to a fresh suite and
/// judged by the same rules. A frame whose Input carries a session token gets a fresh one of
/// the session `REPLAY_AS` names (the recorded one died with its suite).
enum Replay {
    struct ReplayError: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes `text` (hex, `VERTICAL:HEX`, or `@FILE` holding either) and sends it through `fuzzer`.
    static func send(
        _ text: String, as session: FuzzRequest.Session, fuzzer: LiveFuzzer, contracts: SuiteContracts,
        sessions: Sessions
    ) async throws {
        let request = try request(text, as: session, contracts: contracts, sessions: sessions)
        say("fuzz-live: replaying \(request.target.label) (\(request.body.count) bytes of body)")
        let before = fuzzer.findings.count
        fuzzer.replaying = true
        await fuzzer.send(request)
        if fuzzer.findings.count == before { say("fuzz-live: the replayed request held") }
    }

    /// The request `text` (hex, `VERTICAL:HEX`, or `@FILE` holding either) holds, with a fresh
    /// token of `session` in its token field when it has one.
    static func request(
        _ text: String, as session: FuzzRequest.Session, contracts: SuiteContracts, sessions: Sessions
    ) throws -> FuzzRequest {
        var text = text
        if text.hasPrefix("@") {
            guard let contents = WholeFile.read(String(text.dropFirst())) else {
                throw ReplayError(description: "cannot read \(text.dropFirst())")
            }
            text = String(contents.filter { !$0.isWhitespace })
        }
        var vertical: String?
        if let colon = text.firstIndex(of: ":") {
            vertical = String(text[..<colon])
            text = String(text[text.index(after: colon)...])
        }
        guard let frame = Hex.decode(String(text.filter { !$0.isWhitespace })), frame.count >= 4 else {
            throw ReplayError(description: "the frame is not hex")
        }
        let message: Message
        do {
            message = try Message(payload: Array(frame.dropFirst(4)))
        } catch {
            throw ReplayError(description: "the frame does not start with an envelope: \(error)")
        }
        let operation = message.envelope.operation
        let service = vertical ?? String(operation.split(separator: ".").first ?? "")
        guard let contract = contracts.contracts.first(where: { $0.name == service }),
            let described = contract.operations.first(where: { $0.fullName == operation })
        else { throw ReplayError(description: "no vertical of the suite serves \(operation) (as \(service))") }
        let target = SuiteContracts.Target(vertical: service, operation: described)
        let schema = described.input.schema
        var body = message.body
        var input = try? MessageValue(decoding: body, as: schema)
        let token: String? = session == .patient ? sessions.patient : session == .admin ? sessions.admin : nil
        if let token, var decoded = input, let field = sessions.tokenField.flatMap({ schema.field(named: $0) }) {
            decoded[field.tag] = .string(token)
            if let encoded = try? decoded.encoded(as: schema) {
                body = encoded
                input = decoded
            }
        }
        // The body as recorded when it is not the generic codec's encoding of what it decodes to.
        let same = input.flatMap { try? $0.encoded(as: schema) } == body
        return FuzzRequest(
            target: target, session: session, input: input, body: body, rawChange: same ? nil : "sent as recorded")
    }
}
