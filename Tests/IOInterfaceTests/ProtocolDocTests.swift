import Foundation
import IOInterface
import Testing
import VerticalsContract
import VerticalsWire

/// docs/PROTOCOL.md shows whole frames byte by byte. These tests build the same frames
/// with the real encoders and require the page to show exactly them, annotations
/// included, so the page cannot drift from the code. When a test fails it prints the
/// block the page should hold.
@Suite("docs/PROTOCOL.md worked examples")
struct ProtocolDocTests {
    static let loginRequest = Message.frame(
        Envelope(
            kind: .request, correlationID: 1, operation: Identity.login.fullName, deadlineMicroseconds: 2_000_000,
            traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
        body: Identity.LoginInput(email: "ada@example.org", password: "correct horse"))

    static let loginResponse = Message.frame(
        Envelope(kind: .response, correlationID: 1),
        body: Identity.Session(
            token: "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", expiresAt: RFC3339.parse("2026-11-23T09:30:00Z")!,
            userID: "u_7f3a"))

    static let loginError = Message.frame(
        Envelope(kind: .error, correlationID: 1),
        body: ServiceError(.unauthenticated, "wrong e-mail address or password"))

    /// PROTOCOL.md § 4, rule 6, and the recipe of § 1b: a ping and its pong.
    static let ping = Message.frame(Envelope(kind: .ping, correlationID: 1), body: Empty())
    static let pong = Message.frame(Envelope(kind: .pong, correlationID: 1), body: Empty())

    /// PROTOCOL.md § 3, "Versions": what a version-1 server answers a frame of version 2, before it closes.
    static let versionRefusal = Message.frame(
        Envelope(kind: .error, correlationID: 0),
        body: ServiceError(.protocolError, "\(EnvelopeError.unsupportedVersion(2))"))

    static let examples: [DocExample] = [
        DocExample(name: "identity.login request", frame: loginRequest, body: Identity.LoginInput.schema),
        DocExample(name: "identity.login response", frame: loginResponse, body: Identity.Session.schema),
        DocExample(name: "identity.login error", frame: loginError, body: ServiceError.schema),
        DocExample(name: "ping", frame: ping, body: Empty.schema),
        DocExample(name: "pong", frame: pong, body: Empty.schema),
        DocExample(name: "version 2 refused", frame: versionRefusal, body: ServiceError.schema),
    ]

    @Test("the page shows each example frame byte by byte, annotated", arguments: examples)
    func protocolPage_showsTheAnnotatedFrame(example: DocExample) throws {
        let expected = try FrameAnnotator.annotate(example.frame, body: example.body)
        let shown = try ProtocolPage.block(after: "<!-- frame: \(example.name) -->")
        #expect(shown == expected, "docs/PROTOCOL.md should show, after its marker:\n```text\n\(expected)\n```")
        #expect(ProtocolPage.bytes(in: shown) == example.frame)
    }

    @Test("the page gives each example frame as plain hex too", arguments: examples)
    func protocolPage_showsThePlainHex(example: DocExample) throws {
        let expected = stride(from: 0, to: example.frame.count, by: 16).map { start in
            FrameAnnotator.hex(example.frame[start..<min(start + 16, example.frame.count)])
        }.joined(separator: "\n")
        let shown = try ProtocolPage.block(after: "<!-- frame-hex: \(example.name) -->")
        #expect(shown == expected, "docs/PROTOCOL.md should show, after its marker:\n```text\n\(expected)\n```")
    }

    @Test func exampleFrames_decodeWithTheRealDecoders() throws {
        var decoder = FrameDecoder()
        decoder.append(Self.loginRequest + Self.loginResponse + Self.loginError)
        let request = try Message(payload: try #require(try decoder.nextFrame()))
        #expect(request.envelope.operation == "identity.login")
        #expect(try request.decodeBody(as: Identity.LoginInput.self).email == "ada@example.org")
        let response = try Message(payload: try #require(try decoder.nextFrame()))
        #expect(try response.decodeBody(as: Identity.Session.self).userID == "u_7f3a")
        let error = try Message(payload: try #require(try decoder.nextFrame()))
        #expect(try error.decodeBody(as: ServiceError.self).code == .unauthenticated)
    }
}

/// One example frame of the page and the schema of its body.
struct DocExample: Sendable, CustomTestStringConvertible {
    let name: String
    let frame: [UInt8]
    let body: MessageSchema
    var testDescription: String { name }
}

/// Reads docs/PROTOCOL.md.
enum ProtocolPage {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/PROTOCOL.md")

    struct MissingBlock: Error, CustomStringConvertible {
        let marker: String
        var description: String { "docs/PROTOCOL.md has no ```text block after \(marker)" }
    }

    /// The text of the first fenced block after the line `marker`.
    static func block(after marker: String) throws -> String {
        let lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard let markerIndex = lines.firstIndex(where: { $0 == marker }),
            let open = lines[(markerIndex + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0 == "```" })
        else { throw MissingBlock(marker: marker) }
        return lines[(open + 1)..<close].joined(separator: "\n")
    }

    /// The bytes an annotated block shows: the hex before each `#`.
    static func bytes(in block: String) -> [UInt8] {
        block.split(separator: "\n").flatMap { line in
            line.split(separator: "#", maxSplits: 1).first.map { hexPart in
                hexPart.split(separator: " ").compactMap { UInt8($0, radix: 16) }
            } ?? []
        }
    }
}

/// Writes a frame as annotated hex: one row per part, eight bytes a line, the
/// meaning after `#`. Derived from the bytes and the body's schema, never typed by hand.
struct FrameAnnotator {
    struct Malformed: Error {}

    private static let commentColumn = 25

    private let frame: [UInt8]
    private var index = 0
    private var rows: [(ArraySlice<UInt8>, String)] = []

    private init(_ frame: [UInt8]) {
        self.frame = frame
    }

    static func annotate(_ frame: [UInt8], body schema: MessageSchema) throws -> String {
        var annotator = FrameAnnotator(frame)
        try annotator.frameAndEnvelope()
        try annotator.body(schema, end: frame.count, depth: 0)
        guard annotator.index == frame.count else { throw Malformed() }
        return annotator.rows.flatMap { bytes, comment in
            stride(from: bytes.startIndex, to: bytes.endIndex, by: 8).enumerated().map { line, start in
                let text = hex(bytes[start..<min(start + 8, bytes.endIndex)])
                guard line == 0 else { return text }
                return text.padding(to: commentColumn) + "# " + comment
            }
        }.joined(separator: "\n")
    }

    private mutating func take(_ count: Int, _ comment: String) throws {
        guard count >= 0, frame.count - index >= count else { throw Malformed() }
        rows.append((frame[index..<index + count], comment))
        index += count
    }

    private func peekVarint() throws -> UInt64 {
        var reader = ByteReader(frame, start: index)
        return try reader.readVarint()
    }

    private mutating func frameAndEnvelope() throws {
        let length = Int(frame[0]) << 24 | Int(frame[1]) << 16 | Int(frame[2]) << 8 | Int(frame[3])
        try take(4, "frame length: \(length) bytes follow")
        var envelopeReader = ByteReader(frame, start: 4)
        let envelope = try Envelope.read(from: &envelopeReader)
        try take(1, "version 1")
        try take(1, "kind \(envelope.kind.rawValue) = \(envelope.kind)")
        try take(8, "correlation id \(envelope.correlationID)")
        let operation = envelope.operation.utf8.count
        try take(2, "operation: \(operation) bytes" + (operation == 0 ? " (none)" : ""))
        if operation > 0 { try take(operation, "\"\(envelope.operation)\"") }
        let deadline = envelope.deadlineMicroseconds
        try take(8, deadline == 0 ? "deadline: 0 = none" : "deadline: \(deadline) µs remaining")
        let trace = envelope.traceparent?.utf8.count ?? 0
        try take(1, "traceparent: " + (trace == 0 ? "0 = absent" : "\(trace) bytes"))
        if let traceparent = envelope.traceparent { try take(trace, "\"\(traceparent)\"") }
    }

    private mutating func body(_ schema: MessageSchema, end: Int, depth: Int) throws {
        let indent = String(repeating: "  ", count: depth)
        while index < end {
            let key = try peekVarint()
            let tag = UInt32(key >> 3)
            guard let field = schema.field(tag: tag), let wireType = WireType(rawValue: UInt8(key & 7)) else {
                throw Malformed()
            }
            let keyComment =
                "\(indent)key: \(schema.name).\(field.name) = tag \(tag), wire type \(wireType.rawValue) (\(wireType))"
            try take(Varint.length(of: key), keyComment)
            switch field.type {
            case .string, .enumeration:
                let length = try lengthPrefix(indent)
                let text = String(decoding: frame[index..<min(index + length, frame.count)], as: UTF8.self)
                if length > 0 { try take(length, "\(indent)  \"\(text)\"") }
            case .bytes:
                let length = try lengthPrefix(indent)
                if length > 0 { try take(length, "\(indent)  bytes") }
            case .message(let type):
                let length = try lengthPrefix(indent)
                try body(type.schema, end: index + length, depth: depth + 1)
            case .bool:
                let value = try peekVarint()
                try take(Varint.length(of: value), "\(indent)  \(value != 0)")
            case .uint:
                let value = try peekVarint()
                try take(Varint.length(of: value), "\(indent)  \(value)")
            case .int:
                let value = try peekVarint()
                try take(Varint.length(of: value), "\(indent)  ZigZag \(value) = \(Varint.unZigZag(value))")
            case .timestamp:
                let value = try peekVarint()
                let micros = Varint.unZigZag(value)
                let time = RFC3339.format(Timestamp(microsecondsSinceEpoch: micros))
                try take(Varint.length(of: value), "\(indent)  ZigZag \(value) = \(micros) µs = \(time)")
            case .double:
                var reader = ByteReader(frame, start: index)
                let bits = try reader.readUInt64LE()
                try take(8, "\(indent)  \(Double(bitPattern: bits))")
            }
        }
    }

    private mutating func lengthPrefix(_ indent: String) throws -> Int {
        let length = try peekVarint()
        try take(Varint.length(of: length), "\(indent)  length \(length)")
        return Int(length)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined(separator: " ")
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
