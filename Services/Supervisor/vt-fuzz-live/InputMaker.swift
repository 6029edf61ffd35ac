import VerticalsWire

/// Builds one operation's Input from its schema: each field a plausible value (a real id, the
/// session's token, a string an answer carried, a timestamp in the coming days, a known case),
/// except those picked for an edge value (``EdgeValues``) and lists of thousands (deep nesting is
/// ``RawBodies``').
/// Plausible values carry the edges past validation and lookups to the code behind them.
struct InputMaker {
    /// The values answers taught.
    let learned: LearnedValues
    /// The field that carries a session token, when the suite has sessions.
    let tokenField: String?
    /// The token to put there: a real session's, or nil for none (the field then gets none, an
    /// empty one or garbage).
    let token: String?
    /// Percent of fields that get an edge value (0: all plausible, to learn ids).
    let edgePercent: Int
    /// A time in the coming days, on the hour, that plausible timestamps start from.
    let baseMicroseconds: Int64

    /// An Input of `schema`; one top-level field (chosen here) always gets an edge value when
    /// `edgePercent` is not 0.
    func make(_ schema: MessageSchema, using random: inout FuzzRandom) -> MessageValue {
        let forced = edgePercent > 0 && !schema.fields.isEmpty ? random.pick(schema.fields).tag : nil
        return message(schema, depth: 0, forced: forced, using: &random)
    }

    private func message(_ schema: MessageSchema, depth: Int, forced: UInt32?, using random: inout FuzzRandom)
        -> MessageValue
    {
        var value = MessageValue()
        var timestampIndex: Int64 = 0
        for field in schema.fields {
            let edge = field.tag == forced || (edgePercent > 0 && random.chance(edgePercent))
            switch field.presence {
            case .optional, .defaulted:
                // Plausible optional fields are left out now and then.
                if !edge && random.chance(35) { continue }
            case .required, .repeated:
                break
            }
            if field.presence == .repeated {
                value[field.tag] = list(field, in: schema, edge: edge, depth: depth, using: &random)
                continue
            }
            if case .timestamp = field.type, !edge {
                // Consecutive timestamps of one message increase (a start before its end).
                value[field.tag] = .timestamp(
                    Timestamp(microsecondsSinceEpoch: baseMicroseconds + timestampIndex * 1_200_000_000))
                timestampIndex += 1
                continue
            }
            value[field.tag] = single(field, in: schema, edge: edge, depth: depth, using: &random)
        }
        return value
    }

    private func list(
        _ field: FieldDescriptor, in schema: MessageSchema, edge: Bool, depth: Int, using random: inout FuzzRandom
    ) -> WireValue {
        guard edge else {
            let count = depth > 2 ? 0 : Int.random(in: 0...3, using: &random)
            return .list((0..<count).map { _ in single(field, in: schema, edge: false, depth: depth, using: &random) })
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return .list([])
        case 1:
            // Thousands of plausible elements (a real id over and over, for a list of ids).
            guard case .message = field.type else {
                let element = single(field, in: schema, edge: false, depth: depth, using: &random)
                return .list(Array(repeating: element, count: EdgeValues.longList))
            }
            // A plausible message all through: one 64 KiB edge inside, a thousand times over, would
            // pass the receiver's frame limit and never reach the operation.
            let calm = InputMaker(
                learned: learned, tokenField: tokenField, token: token, edgePercent: 0,
                baseMicroseconds: baseMicroseconds)
            let element = calm.single(field, in: schema, edge: false, depth: depth + 1, using: &random)
            return .list(Array(repeating: element, count: EdgeValues.longList / 5))
        case 2:
            // Thousands of small edge values.
            if let element = EdgeValues.value(of: field.type, small: true, using: &random) {
                return .list(Array(repeating: element, count: EdgeValues.longList))
            }
            return .list([single(field, in: schema, edge: true, depth: depth, using: &random)])
        default:
            return .list(
                (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    single(field, in: schema, edge: true, depth: depth, using: &random)
                })
        }
    }

    private func single(
        _ field: FieldDescriptor, in schema: MessageSchema, edge: Bool, depth: Int, using random: inout FuzzRandom
    ) -> WireValue {
        if case .message(let reference) = field.type {
            let nested = reference.schema
            if depth > 6 { return .message(MessageValue()) }
            return .message(message(nested, depth: depth + 1, forced: nil, using: &random))
        }
        if edge, let value = EdgeValues.value(of: field.type, small: false, using: &random) {
            // An id field's edge may also be another kind's real id.
            if LearnedValues.isID(field.name), random.chance(25),
                let any = learned.ids(forField: "", inMessage: "").randomElement(using: &random)
            {
                return .string(any)
            }
            return value
        }
        return plausible(field, in: schema, using: &random)
    }

    /// A value of the field's type that a caller would send.
    private func plausible(_ field: FieldDescriptor, in schema: MessageSchema, using random: inout FuzzRandom)
        -> WireValue
    {
        switch field.type {
        case .bool: return .bool(random.chance(50))
        case .int: return .int(random.pick([1, 2, 5, 10, 20]))
        case .uint: return .uint(random.pick([1, 2, 5, 10, 20]))
        case .double: return .double(Double(Int.random(in: -9_000...9_000, using: &random)) / 100)
        case .timestamp: return .timestamp(Timestamp(microsecondsSinceEpoch: baseMicroseconds))
        case .bytes: return .bytes(Array("fuzz".utf8))
        case .enumeration(let enumeration):
            return .enumeration(enumeration.cases.isEmpty ? "" : random.pick(enumeration.cases))
        case .message: return .message(MessageValue())
        case .string:
            if field.name == tokenField {
                if let token { return .string(token) }
                return .string(random.pick(["", "not-a-session-token", String(repeating: "0", count: 64)]))
            }
            if LearnedValues.isID(field.name) {
                let known = learned.ids(forField: field.name, inMessage: schema.name)
                if let id = known.randomElement(using: &random), random.chance(90) { return .string(id) }
                return .string("fuzz-unknown-id")
            }
            if let seen = learned.strings[field.name], let text = seen.randomElement(using: &random), random.chance(60)
            {
                return .string(text)
            }
            return .string(Self.credentialLike(Int.random(in: 0..<1_000_000, using: &random)))
        }
    }

    /// A string that passes as an e-mail address, a password, a name or free text alike, so that a
    /// field is plausible whatever it means.
    static func credentialLike(_ number: Int) -> String { "fuzz.\(number)-Aa9@example.org" }
}
