import Testing
import VerticalsWire

@Suite("JSON parser and printer")
struct JSONParserTests {
    @Test(
        "valid documents parse",
        arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), (" \t\r\nfalse\n", .bool(false)),
            ("0", .number("0")), ("-0", .number("-0")), ("-12.5e+3", .number("-12.5e+3")), ("1E-2", .number("1E-2")),
            ("[]", .array([])), ("{}", .object([])),
            (#"[1,"a",[null]]"#, .array([.number("1"), .string("a"), .array([.null])])),
            (#"{"a":{"b":[]},"a":1}"#, .object([("a", .object([("b", .array([]))])), ("a", .number("1"))])),
            (#""""#, .string("")), (#""é☃😀""#, .string("é☃😀")),
        ])
    func parse_givenValidJSON_returnsTheValue(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test func parse_decodesEveryEscape() throws {
        #expect(try JSONValue(parsing: #""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try JSONValue(parsing: #""\u0041\u00e9\u2603\u0000""#) == .string("Aé☃\u{0}"))
    }

    @Test func parse_joinsSurrogatePairs() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue(parsing: #""\uD834\uDD1E!""#) == .string("𝄞!"))
    }

    @Test(
        "malformed documents are rejected with the kind of error",
        arguments: [
            ("", JSONSyntaxError.Kind.unexpectedEnd), ("   ", .unexpectedEnd), ("[", .unexpectedEnd),
            (#"{"a":"#, .unexpectedEnd), (#""abc"#, .unexpectedEnd), ("tru", .unexpectedEnd),
            (#""\u12"#, .unexpectedEnd),
            ("[1,]", .unexpectedCharacter), (#"{"a":1,}"#, .unexpectedCharacter), (#"{"a" 1}"#, .unexpectedCharacter),
            ("{'a':1}", .unexpectedCharacter), ("{a:1}", .unexpectedCharacter), ("+1", .unexpectedCharacter),
            (".5", .unexpectedCharacter), ("NaN", .unexpectedCharacter), ("Infinity", .unexpectedCharacter),
            ("truE", .unexpectedCharacter), ("[1 2]", .unexpectedCharacter), ("// c\n1", .unexpectedCharacter),
            ("\u{FEFF}1", .unexpectedCharacter), ("[1,,2]", .unexpectedCharacter),
            ("01", .invalidNumber), ("-", .invalidNumber), ("-a", .invalidNumber), ("1.", .invalidNumber),
            ("1.e3", .invalidNumber), ("1e", .invalidNumber), ("1e+", .invalidNumber), ("-01", .invalidNumber),
            (#""\x""#, .invalidEscape), (#""\u12G4""#, .invalidEscape), (#""\U0041""#, .invalidEscape),
            (#""\ud83d""#, .loneSurrogate), (#""\ude00""#, .loneSurrogate), (#""\ud83d\u0041""#, .loneSurrogate),
            (#""\ud83dx""#, .loneSurrogate), ("\"a\tb\"", .controlCharacter), ("\"a\nb\"", .controlCharacter),
            ("[1] x", .trailingCharacters), ("1 2", .trailingCharacters), ("{}}", .trailingCharacters),
            ("nulll", .trailingCharacters),
        ])
    func parse_givenMalformedJSON_throwsItsKind(text: String, kind: JSONSyntaxError.Kind) {
        let error = try? #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
        #expect(error?.kind == kind, "\(error.map { "\($0)" } ?? "no error")")
    }

    @Test func parse_givenInvalidUTF8InAString_throwsInvalidUTF8() throws {
        #expect(try JSONValue(parsing: [0x22, 0xC3, 0xA9, 0x22]) == .string("é"))
        for bad: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            let error = try? #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: bad) }
            #expect(error?.kind == .invalidUTF8)
        }
        let outside = try? #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0xFF]) }
        #expect(outside?.kind == .unexpectedCharacter)
    }

    @Test func parse_reportsTheLineAndColumnOfTheProblem() {
        let error = try? #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: "{\n  \"a\": x\n}") }
        #expect(error?.line == 2)
        #expect(error?.column == 8)
        #expect(error?.offset == 9)
        #expect(error?.description == "line 2, column 8: expected a value, found 'x'")
    }

    @Test(
        "nesting up to the limit parses; one level more is an error, not a stack overflow", arguments: ["[", #"{"a":"#])
    func parse_givenDeepNesting_stopsAtTheLimit(opener: String) throws {
        let closer = opener == "[" ? "]" : "}"
        let limit = JSONValue.defaultMaxDepth
        let atLimit = String(repeating: opener, count: limit) + "1" + String(repeating: closer, count: limit)
        _ = try JSONValue(parsing: atLimit)
        let overLimit = String(repeating: opener, count: limit + 1) + "1" + String(repeating: closer, count: limit + 1)
        let error = try? #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: overLimit) }
        #expect(error?.kind == .tooDeep)
        let hostile = String(repeating: opener, count: 1_000_000)
        let hostileError = try? #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: hostile) }
        #expect(hostileError?.kind == .tooDeep)
    }

    @Test func parse_givenACustomDepth_usesIt() throws {
        _ = try JSONValue(parsing: "[[1]]", maxDepth: 2)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "[[[1]]]", maxDepth: 2) }
    }

    @Test func parse_keepsNumbersExactly() throws {
        let text = "[18446744073709551615,-9223372036854775808,0.1000000000000000055511151231257827]"
        #expect(try JSONValue(parsing: text).serialized() == text)
    }

    @Test func serialized_escapesWhatJSONRequires() {
        let value = JSONValue.string("q\"b\\s/n\nr\rt\tb\u{8}f\u{C}z\u{0}x\u{1F}é😀\u{7F}")
        #expect(value.serialized() == #""q\"b\\s/n\nr\rt\tb\bf\fz\u0000x\u001fé😀\#u{7F}""#)
    }

    @Test func serialized_pretty_indentsTwoSpacesAMember() {
        let value = JSONValue.object([
            ("name", .string("Hill")), ("tags", .array([.number("1"), .bool(false)])), ("empty", .object([])),
            ("none", .array([])),
        ])
        #expect(value.serialized() == #"{"name":"Hill","tags":[1,false],"empty":{},"none":[]}"#)
        #expect(
            value.serialized(pretty: true) == """
                {
                  "name": "Hill",
                  "tags": [
                    1,
                    false
                  ],
                  "empty": {},
                  "none": []
                }
                """)
    }

    @Test("printing then parsing gives the same value", arguments: [false, true])
    func serialized_thenParsed_roundTrips(pretty: Bool) throws {
        let value = JSONValue.object([
            ("s", .string("\u{0}\u{1}\"\\😀")), ("n", .array([.number("-1.5e-7"), .null, .bool(true)])),
            ("o", .object([("", .object([]))])),
        ])
        #expect(try JSONValue(parsing: value.serialized(pretty: pretty)) == value)
    }
}
