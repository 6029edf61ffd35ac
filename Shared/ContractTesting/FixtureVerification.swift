import VerticalsContract
import VerticalsWire

/// Checks a committed golden sample against today's code: encode(example) == bytes and
/// decode(bytes) == example, where the example is the sample's JSON read by the message's
/// own type. Each problem names the message and, where it can, the field.
public enum FixtureVerification {
    /// The problems of `sample` as a `M`; empty when the wire form is unchanged.
    public static func problems<M: WireMessage>(_ sample: GoldenFixture.Sample, as _: M.Type) -> [String] {
        let name = M.schema.name
        var problems: [String] = []
        if sample.message != name {
            problems.append("\(sample.role) is \(name) now, the fixture holds \(sample.message)")
        }
        let example: M
        do {
            example = try M(json: sample.json.serialized())
        } catch {
            return problems + ["\(sample.role): the committed JSON no longer reads as \(name): \(error)"]
        }
        let encoded = example.encodedBody()
        if encoded != sample.bytes {
            problems.append(
                "\(sample.role): encode(example) differs from the committed bytes at "
                    + FieldDifference.first(expected: sample.bytes, actual: encoded, schema: M.schema))
        }
        do {
            let decoded = try M(decoding: sample.bytes)
            if decoded != example {
                problems.append(
                    "\(sample.role): decode(bytes) differs from the example at "
                        + FieldDifference.first(expected: encoded, actual: decoded.encodedBody(), schema: M.schema))
            }
        } catch {
            problems.append("\(sample.role): the committed bytes no longer decode as \(name): \(error)")
        }
        return problems
    }
}

/// Names the first field where two bodies of one message differ, e.g.
/// `shop.Item.prices[0].cents: expected int -37, got uint 300`.
public enum FieldDifference {
    /// The first differing field of `expected` and `actual` as `schema`, in words.
    public static func first(expected: [UInt8], actual: [UInt8], schema: MessageSchema) -> String {
        let old: MessageValue
        let new: MessageValue
        do {
            old = try MessageValue(decoding: expected, as: schema)
        } catch {
            return "\(schema.name): the committed bytes do not decode by today's schema: \(error)"
        }
        do {
            new = try MessageValue(decoding: actual, as: schema)
        } catch {
            return "\(schema.name): today's bytes do not decode by today's schema: \(error)"
        }
        return first(old, new, schema, path: schema.name)
            ?? "\(schema.name): same field values, different bytes (\(Hex.encode(expected)) vs \(Hex.encode(actual)))"
    }

    static func first(_ old: MessageValue, _ new: MessageValue, _ schema: MessageSchema, path: String) -> String? {
        let tags = old.fields.map(\.tag) + new.fields.map(\.tag).filter { tag in old[tag] == nil }
        for tag in tags {
            let name = schema.field(tag: tag)?.name ?? "#\(tag)"
            let fieldPath = "\(path).\(name)"
            let (a, b) = (old[tag], new[tag])
            if a == b { continue }
            if case .message(let x)? = a, case .message(let y)? = b,
                case .message(let type)? = schema.field(tag: tag)?.type
            {
                if let found = first(x, y, type.schema, path: fieldPath) { return found }
                continue
            }
            if case .list(let xs)? = a, case .list(let ys)? = b, xs.count == ys.count,
                case .message(let type)? = schema.field(tag: tag)?.type
            {
                for (index, (x, y)) in zip(xs, ys).enumerated() {
                    if case .message(let xm) = x, case .message(let ym) = y,
                        let found = first(xm, ym, type.schema, path: "\(fieldPath)[\(index)]")
                    {
                        return found
                    }
                }
                continue
            }
            return "\(fieldPath): expected \(text(a)), got \(text(b))"
        }
        return nil
    }

    private static func text(_ value: WireValue?) -> String {
        guard let value else { return "nothing" }
        return "\(value)"
    }
}
