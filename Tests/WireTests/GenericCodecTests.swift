import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsWire

@Suite("Generic, schema-driven codec")
struct GenericCodecTests {
    @Test("decoding then encoding by schema gives the direct codec's bytes", arguments: BodyCodecTests.samples)
    func genericCodec_reencodesTheDirectBytesExactly(sample: Sample) throws {
        let body = sample.encodedBody()
        let value = try MessageValue(decoding: body, as: Sample.schema, strict: true)
        #expect(try value.encoded(as: Sample.schema) == body)
    }

    @Test func genericDecoder_givesFieldsInSchemaOrder_withDefaultsAndEmptyLists() throws {
        let value = try MessageValue(decoding: Sample.minimal.encodedBody(), as: Sample.schema)
        #expect(value.fields.map(\.tag) == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13])
        #expect(value[9] == nil, "absent optional")
        #expect(value[10] == .list([]))
        #expect(value[13] == .int(3))
        #expect(value.value(named: "colour", in: Sample.schema) == .enumeration("red"))
    }

    @Test func genericDecoder_readsEveryFieldType() throws {
        let value = try MessageValue(decoding: Sample().encodedBody(), as: Sample.schema)
        let expected: MessageValue = [
            1: .bool(true), 2: .int(-42), 3: .uint(300), 4: .double(0.25), 5: .string("héllo"),
            6: .bytes([0, 1, 254, 255]), 7: .timestamp(Timestamp(secondsSinceEpoch: 1_795_426_200)),
            8: .enumeration("green"), 9: .message([1: .string("in"), 2: .int(-1)]),
            10: .list([.string("a"), .string(""), .string("c")]),
            11: .list([.message([1: .string("x"), 2: .int(0)]), .message([1: .string("y"), 2: .int(7)])]),
            12: .string("a note"), 13: .int(9),
        ]
        #expect(value == expected)
    }

    @Test func genericEncoder_givenAHandBuiltValue_writesWhatTheDirectCodecWrites() throws {
        let login: MessageValue = [2: .string("pw"), 1: .string("ada@example.org")]
        let expected = Specimen.SignInInput(account: "ada@example.org", passphrase: "pw").encodedBody()
        #expect(try login.encoded(as: Specimen.SignInInput.schema) == expected, "schema order, not value order")
        let search: MessageValue = [1: .string("Hill")]
        #expect(try search.encoded(as: Specimen.SearchInput.schema) == Specimen.SearchInput(name: "Hill").encodedBody())
    }

    @Test func genericDecoder_whenStrict_rejectsUnknownTagsAndRepeatedSingularFields() throws {
        var body = BodyWriter()
        Inner(name: "a").encode(to: &body)
        body.write(7, "new")
        #expect(try MessageValue(decoding: body.buffer.bytes, as: Inner.schema) == [1: .string("a"), 2: .int(0)])
        let unknown = try #require(throws: WireDecodingError.self) {
            try MessageValue(decoding: body.buffer.bytes, as: Inner.schema, strict: true)
        }
        #expect(unknown.description == "test.Inner.#7: tag 7 is not a field of test.Inner")

        var twice = BodyWriter()
        twice.write(1, "a")
        twice.write(1, "b")
        #expect(try MessageValue(decoding: twice.buffer.bytes, as: Inner.schema)[1] == .string("b"))
        let duplicate = try #require(throws: WireDecodingError.self) {
            try MessageValue(decoding: twice.buffer.bytes, as: Inner.schema, strict: true)
        }
        #expect(duplicate.fieldPath == "test.Inner.name")
    }

    @Test func genericDecoder_givenAWrongWireTypeOrMissingField_namesThePath() throws {
        var inner = BodyWriter()
        inner.write(1, "x")
        inner.write(2, 1.5)
        var body = BodyWriter()
        body.write(11, inner.buffer.bytes)
        let wrongType = try #require(throws: WireDecodingError.self) {
            try MessageValue(decoding: body.buffer.bytes, as: Sample.schema)
        }
        #expect(wrongType.fieldPath == "test.Sample.items.value")
        #expect(wrongType.code == .wrongWireType && wrongType.message == "expected varint, found fixed64")

        let missing = try #require(throws: WireDecodingError.self) {
            try MessageValue(decoding: Inner(name: "x").encodedBody().suffix(2).map { $0 }, as: Inner.schema)
        }
        #expect(missing.description == "test.Inner.name: required field is missing")
    }

    @Test func genericDecoder_givenNestingPastTheLimit_throwsInsteadOfOverflowingTheStack() throws {
        let limit = MessageValue.maxNestingDepth
        _ = try MessageValue(decoding: Node.chainBody(depth: limit - 1), as: Node.schema)
        for depth in [limit, 100_000] {
            let error = try #require(throws: WireDecodingError.self) {
                try MessageValue(decoding: Node.chainBody(depth: depth), as: Node.schema)
            }
            #expect(error.description.contains("nest deeper than \(limit)"))
        }
    }

    @Test func genericDecoder_readsASubrangeWithoutCopying() throws {
        let body = Inner(name: "x", value: 2).encodedBody()
        let padded = [0xEE] + body + [0xEE]
        #expect(
            try MessageValue(decoding: padded, from: 1, to: 1 + body.count, as: Inner.schema)
                == [1: .string("x"), 2: .int(2)])
    }

    /// A value that does not fit `Inner`'s schema, and the error it must give.
    struct Misfit: Sendable, CustomTestStringConvertible {
        let value: MessageValue
        let code: WireValueError.Code
        let path: String
        var testDescription: String { "\(code) at \(path)" }
    }

    @Test(
        "encoding a value that does not fit the schema fails naming the field",
        arguments: [
            Misfit(value: [2: .int(1)], code: .missingField, path: "name"),
            Misfit(value: [1: .int(1)], code: .typeMismatch, path: "name"),
            Misfit(value: [1: .string("a"), 9: .int(1)], code: .unknownField, path: "#9"),
            Misfit(value: [1: .string("a"), 1: .string("b")], code: .duplicateField, path: "name"),
        ])
    func genericEncoder_givenAMisfit_throws(misfit: Misfit) {
        let error = try? #require(throws: WireValueError.self) { try misfit.value.encoded(as: Inner.schema) }
        #expect(error?.code == misfit.code)
        #expect(error?.path == misfit.path)
    }

    @Test func genericEncoder_givenAMisfitDeepInside_namesItsPathWithIndexes() {
        let value: MessageValue = [
            1: .bool(true), 2: .int(0), 3: .uint(0), 4: .double(0), 5: .string(""), 6: .bytes([]),
            7: .timestamp(.epoch), 8: .enumeration("red"),
            11: .list([.message([1: .string("ok")]), .message([1: .string("x"), 2: .string("two")])]),
        ]
        let error = try? #require(throws: WireValueError.self) { try value.encoded(as: Sample.schema) }
        #expect(error?.description == #"field "items[1].value": expected int, got a string"#)
        var notAList = value
        notAList[10] = .string("a")
        let listError = try? #require(throws: WireValueError.self) { try notAList.encoded(as: Sample.schema) }
        #expect(listError?.description == #"field "tags": expected a list, got a string"#)
    }

    @Test func messageValue_subscript_setsReplacesAndRemoves() {
        var value: MessageValue = [1: .string("a")]
        value[2] = .int(1)
        value[1] = .string("b")
        #expect(value == [1: .string("b"), 2: .int(1)])
        value[1] = nil
        value[5] = nil
        #expect(value == [2: .int(1)])
    }
}
