import Testing
import VerticalsWire

/// A decoding error is a code to compare and a message to read: new codes may come without
/// breaking a `switch`, and the text says the place and what was wrong there.
struct WireDecodingErrorTests {
    @Test(arguments: [
        (
            WireDecodingError.truncated(tag: 3), WireDecodingError.Code.truncated,
            "field #3: the body ends inside this field"
        ),
        (.unsupportedWireType(6, tag: 2), .unsupportedWireType, "field #2: unsupported wire type 6"),
        (.invalidTag(0), .invalidTag, "body: invalid field tag 0"),
        (
            .wrongWireType(expected: .varint, found: .fixed64, tag: 1), .wrongWireType,
            "field #1: expected varint, found fixed64"
        ),
        (.missingField(tag: 4), .missingField, "field #4: required field is missing"),
        (.invalidValue("over 5 bytes", tag: 7), .invalidValue, "field #7: over 5 bytes"),
    ])
    func factory_setsTheCode_andTheTextNamesThePlace(
        error: WireDecodingError, code: WireDecodingError.Code, text: String
    ) {
        #expect(error.code == code)
        #expect(error.description == text)
        #expect(error.inside(9).tagPath == [9] + error.tagPath && error.inside(9).code == code)
    }

    @Test func codes_compareByName_andSayIt() {
        #expect(WireDecodingError.Code.truncated != .missingField)
        #expect("\(WireDecodingError.Code.wrongWireType)" == "wrongWireType")
        #expect(
            WireDecodingError.truncated(tag: 1)
                == WireDecodingError(.truncated, "the body ends inside this field", tag: 1))
    }
}
