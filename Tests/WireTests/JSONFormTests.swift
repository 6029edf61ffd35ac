import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsWire

@Suite("JSON form of messages")
struct JSONFormTests {
    @Test func jsonString_writesFieldsInSchemaOrder_withDefaultsAndWithoutAbsentOptionals() throws {
        #expect(try Specimen.SearchInput(name: "Hill").jsonString() == #"{"name":"Hill","limit":20}"#)
        #expect(
            try Specimen.NearestInput(latitude: 51.5, longitude: -0.125).jsonString()
                == #"{"latitude":51.5,"longitude":-0.125,"limit":5}"#)
    }

    @Test func jsonString_writesEveryFieldType() throws {
        let sample = Sample(
            ratio: 1e-7, blob: [0, 1, 254, 255], at: Timestamp(microsecondsSinceEpoch: 1_795_426_200_000_001))
        #expect(
            try sample.jsonString() == """
                {"flag":true,"count":-42,"size":300,"ratio":1e-07,"title":"héllo","blob":"AAH+/w==",\
                "at":"2026-11-23T09:30:00.000001Z","colour":"green","inner":{"name":"in","value":-1},\
                "tags":["a","","c"],"items":[{"name":"x","value":0},{"name":"y","value":7}],"note":"a note","level":9}
                """)
        #expect(
            try Sample.minimal.jsonString() == """
                {"flag":false,"count":0,"size":0,"ratio":0.0,"title":"","blob":"","at":"1970-01-01T00:00:00Z",\
                "colour":"red","tags":[],"items":[],"level":3}
                """)
    }

    @Test func jsonString_pretty_isReadable() throws {
        #expect(
            try Inner(name: "a", value: 1).jsonString(pretty: true) == """
                {
                  "name": "a",
                  "value": 1
                }
                """)
    }

    @Test("messages round-trip through their JSON form", arguments: BodyCodecTests.samples)
    func jsonForm_roundTrips(sample: Sample) throws {
        #expect(try Sample(json: sample.jsonString()) == sample)
        #expect(try Sample(json: sample.jsonString(pretty: true)) == sample)
    }

    @Test("non-finite doubles travel as strings", arguments: [Double.infinity, -Double.infinity])
    func jsonForm_givenNonFiniteDoubles_usesStrings(value: Double) throws {
        let text = try Sample(ratio: value).jsonString()
        #expect(text.contains(#""ratio":"\#(value < 0 ? "-Infinity" : "Infinity")""#))
        #expect(try Sample(json: text).ratio == value)
        let nan = try Sample(json: Sample(ratio: .nan).jsonString())
        #expect(nan.ratio.isNaN)
    }

    /// docs/PROTOCOL.md § 10: decimal from 0.0001 to 2^53, the exponent form outside, with a sign
    /// and at least two digits.
    @Test(
        "a double takes the exponent form below 0.0001 and above 2^53",
        arguments: [
            (0.0001, "0.0001"), (9.999e-05, "9.999e-05"), (0.1, "0.1"), (52, "52.0"), (-0.0, "-0.0"),
            (9_007_199_254_740_992, "9007199254740992.0"), (9_007_199_254_740_994, "9.007199254740994e+15"),
            (1e16, "1e+16"), (1e-7, "1e-07"), (Double.leastNonzeroMagnitude, "5e-324"),
        ])
    func jsonForm_writesADoubleInExponentFormOnlyOutsideTheDecimalRange(value: Double, text: String) throws {
        #expect(try Sample(ratio: value).jsonString().contains(#""ratio":\#(text),"#))
        #expect(try Sample(json: Sample(ratio: value).jsonString()).ratio.bitPattern == value.bitPattern)
    }

    @Test(arguments: ["52", "52.0", "5.2e1", "5.2E+1", "520e-1"])
    func init_json_readsADoubleInAnyNumberForm(text: String) throws {
        let json = try Sample(ratio: 1).jsonString().replacingOccurrences(#""ratio":1.0,"#, with: #""ratio":\#(text),"#)
        #expect(try Sample(json: json).ratio == 52)
    }

    @Test func jsonForm_keepsIntegersExact() throws {
        let extremes = Sample(count: .min, size: .max, level: .max)
        let text = try extremes.jsonString()
        #expect(text.contains(#""count":-9223372036854775808,"size":18446744073709551615"#))
        #expect(try Sample(json: text) == extremes)
    }

    @Test func init_json_fillsDefaultsAndAcceptsAnyKeyOrder() throws {
        #expect(try Specimen.SearchInput(json: #"{"name":"Hill"}"#) == Specimen.SearchInput(name: "Hill", limit: 20))
        #expect(try Specimen.SearchInput(json: #" { "limit" : 3 , "name" : "Hill" } "#).limit == 3)
        #expect(
            try Specimen.NearestInput(json: #"{"latitude":1,"longitude":-2}"#)
                == Specimen.NearestInput(latitude: 1, longitude: -2, limit: 5, service: nil))
    }

    @Test func init_json_treatsNullAsAbsent() throws {
        #expect(
            try Specimen.NearestInput(json: #"{"latitude":1,"longitude":2,"service":null,"limit":null}"#)
                == Specimen.NearestInput(latitude: 1, longitude: 2))
        let error = try #require(throws: WireValueError.self) { try Specimen.SearchInput(json: #"{"name":null}"#) }
        #expect(error.code == .missingField)
    }

    @Test func init_json_keepsUnknownEnumerationCases() throws {
        let input = try Specimen.NearestInput(json: #"{"latitude":1,"longitude":2,"service":"acupuncture"}"#)
        #expect(input.service == .unknown("acupuncture"))
        #expect(try input.jsonString().contains(#""service":"acupuncture""#))
    }

    @Test func init_json_acceptsBase64WithOrWithoutPadding() throws {
        let padded = try Sample(json: Sample(blob: [1, 2, 3, 4]).jsonString())
        #expect(padded.blob == [1, 2, 3, 4])
        var text = try Sample(blob: [0xFF, 0xEE]).jsonString()
        #expect(text.contains(#""blob":"/+4=""#))
        text = text.replacingOccurrences(#""/+4=""#, with: #""/+4""#)
        #expect(try Sample(json: text).blob == [0xFF, 0xEE])
    }

    /// A JSON text that is not `specimen.SearchInput`'s JSON form, and the error it must give.
    struct FormCase: Sendable, CustomTestStringConvertible {
        let text: String
        let code: WireValueError.Code
        let path: String
        let description: String
        var testDescription: String { text }
    }

    static let formCases = [
        FormCase(
            text: #"{"name":"Hill","limit":"abc"}"#, code: .typeMismatch, path: "limit",
            description: #"field "limit": expected an integer, got "abc""#),
        FormCase(
            text: #"{"name":"Hill","limit":1.5}"#, code: .typeMismatch, path: "limit",
            description: #"field "limit": expected an integer, got 1.5"#),
        FormCase(
            text: #"{"name":"Hill","limit":1e2}"#, code: .typeMismatch, path: "limit",
            description: #"field "limit": expected an integer, got 1e2"#),
        FormCase(
            text: #"{"name":"Hill","limit":true}"#, code: .typeMismatch, path: "limit",
            description: #"field "limit": expected an integer, got true"#),
        FormCase(
            text: #"{"name":"Hill","limit":9223372036854775808}"#, code: .outOfRange, path: "limit",
            description:
                #"field "limit": expected an integer from -9223372036854775808 to 9223372036854775807, got 9223372036854775808"#
        ),
        FormCase(
            text: #"{"name":"Hill","limit":123456789012345678901234567890}"#, code: .outOfRange, path: "limit",
            description: #"field "limit": 123456789012345678901234567890 does not fit in 64 bits"#),
        FormCase(
            text: #"{"name":"Hill","colour":"red"}"#, code: .unknownField, path: "colour",
            description: #"field "colour": not a field of specimen.SearchInput (its fields: name, limit, cursor)"#),
        FormCase(
            text: #"{"limit":3}"#, code: .missingField, path: "name",
            description: #"field "name": required field is missing"#),
        FormCase(
            text: #"{"name":"a","name":"b"}"#, code: .duplicateField, path: "name",
            description: #"field "name": the key appears more than once"#),
        FormCase(
            text: #"["Hill"]"#, code: .typeMismatch, path: "",
            description: "specimen.SearchInput: expected an object, got an array"),
        FormCase(
            text: #"{"name":"Hill""#, code: .invalidJSON, path: "",
            description:
                "specimen.SearchInput: not JSON: line 1, column 15: the text ends where ',' or '}' after an object member was expected"
        ),
        FormCase(
            text: #"{"name":7}"#, code: .typeMismatch, path: "name",
            description: #"field "name": expected a string, got 7"#),
    ]

    @Test("invalid JSON forms fail with a typed error naming the field", arguments: formCases)
    func init_json_givenAnInvalidForm_throwsATypedError(form: FormCase) {
        let error = try? #require(throws: WireValueError.self) { try Specimen.SearchInput(json: form.text) }
        #expect(error?.code == form.code)
        #expect(error?.path == form.path)
        #expect(error?.messageName == "specimen.SearchInput")
        #expect(error?.description == form.description)
    }

    @Test func init_json_namesNestedFieldsWithTheirListIndex() throws {
        let text = """
            {"token":"t","name":"n","address":"a","latitude":0,"longitude":0,"timeZone":"Europe/London",
             "hours":[{"weekday":"monday","opens":540,"closes":1020},{"weekday":"tuesday","opens":"9am","closes":1020}]}
            """
        let error = try #require(throws: WireValueError.self) { try Specimen.CreateInput(json: text) }
        #expect(error.path == "hours[1].opens")
        #expect(error.description == #"field "hours[1].opens": expected an integer, got "9am""#)

        let missing = text.replacingOccurrences(#""weekday":"tuesday","#, with: "")
        let missingError = try #require(throws: WireValueError.self) { try Specimen.CreateInput(json: missing) }
        #expect(missingError.code == .missingField)
        #expect(missingError.path == "hours[1].weekday")
    }

    /// A field of `Sample`'s JSON form replaced by raw JSON text, and the error expected (nil: accepted).
    struct ShapeCase: Sendable, CustomTestStringConvertible {
        let key: String
        let raw: String
        let path: String?
        let code: WireValueError.Code?
        var testDescription: String { "\(key): \(raw)" }
    }

    static let shapeCases = [
        ShapeCase(key: "flag", raw: "1", path: "flag", code: .typeMismatch),
        ShapeCase(key: "size", raw: "-1", path: "size", code: .outOfRange),
        ShapeCase(key: "size", raw: "-0", path: nil, code: nil),
        ShapeCase(key: "ratio", raw: #""1.5""#, path: "ratio", code: .typeMismatch),
        ShapeCase(key: "ratio", raw: "1e400", path: "ratio", code: .outOfRange),
        ShapeCase(key: "ratio", raw: "1e-400", path: nil, code: nil),
        ShapeCase(key: "ratio", raw: "7", path: nil, code: nil),
        ShapeCase(key: "blob", raw: #""a$==""#, path: "blob", code: .invalidValue),
        ShapeCase(key: "blob", raw: #""A""#, path: "blob", code: .invalidValue),
        ShapeCase(key: "blob", raw: "[1]", path: "blob", code: .typeMismatch),
        ShapeCase(key: "at", raw: #""yesterday""#, path: "at", code: .invalidValue),
        ShapeCase(key: "at", raw: "1795426200", path: "at", code: .typeMismatch),
        ShapeCase(key: "colour", raw: "3", path: "colour", code: .typeMismatch),
        ShapeCase(key: "inner", raw: #""x""#, path: "inner", code: .typeMismatch),
        ShapeCase(key: "inner", raw: #"{"value":1}"#, path: "inner.name", code: .missingField),
        ShapeCase(key: "tags", raw: #""a""#, path: "tags", code: .typeMismatch),
        ShapeCase(key: "tags", raw: "[null]", path: "tags[0]", code: .typeMismatch),
        ShapeCase(key: "items", raw: #"[{"name":"a","extra":1}]"#, path: "items[0].extra", code: .unknownField),
    ]

    @Test("each field type rejects values of the wrong shape", arguments: shapeCases)
    func init_json_givenAValueOfTheWrongShape_namesTheField(shape: ShapeCase) throws {
        guard case .object(var members) = try JSONValue(parsing: Sample().jsonString()) else {
            Issue.record("Sample's JSON form is not an object")
            return
        }
        members.removeAll { $0.key == shape.key }
        let text = String(JSONValue.object(members).serialized().dropLast()) + #","\#(shape.key)":\#(shape.raw)}"#
        if let path = shape.path, let code = shape.code {
            let error = try? #require(throws: WireValueError.self) { try Sample(json: text) }
            #expect(error?.path == path)
            #expect(error?.code == code, "\(error.map { "\($0)" } ?? "")")
        } else {
            _ = try Sample(json: text)
        }
    }

    @Test func messageValue_json_refusesAValueThatDoesNotFitTheSchema() {
        let wrongType: MessageValue = [1: .int(3)]
        let error = try? #require(throws: WireValueError.self) { try wrongType.json(as: Specimen.SearchInput.schema) }
        #expect(error?.description == #"field "name": expected string, got an int"#)
        let missing: MessageValue = [2: .int(3)]
        #expect(throws: WireValueError.self) { try missing.json(as: Specimen.SearchInput.schema) }
    }
}

extension String {
    /// `self` with every `target` replaced, without Foundation.
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
