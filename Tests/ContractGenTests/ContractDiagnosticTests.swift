import Testing
import VerticalsContractGen

/// A mistake in a `.vcontract` file is reported at its line and column, as SwiftPM shows a
/// compile error, and stops the generation.
@Suite struct ContractDiagnosticTests {
    /// The first (and usually only) diagnostic `text` gets, as `file:line:col: error: message`.
    static func diagnostics(_ text: String, others: [String] = []) -> [String] {
        let inputs =
            [ContractGenerator.Input(path: "bad.vcontract", text: text)]
            + others.enumerated().map { ContractGenerator.Input(path: "other\($0.offset).vcontract", text: $0.element) }
        switch ContractGenerator.generate(inputs) {
        case .success: return []
        case .failure(let failure): return failure.diagnostics.map(\.description)
        }
    }

    @Test(arguments: [
        (
            "an unknown type",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: strin\n}\n",
            "bad.vcontract:5:10: error: unknown type 'strin'"
        ),
        (
            "a duplicate tag",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: string\n    /// C.\n    1 c: int\n}\n",
            "bad.vcontract:7:5: error: tag 1 is already used by 'b' in A"
        ),
        (
            "a duplicate field name",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: string\n    /// B again.\n    2 b: int\n}\n",
            "bad.vcontract:7:5: error: field 'b' is declared twice in A"
        ),
        (
            "a missing tag",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    b: string\n}\n",
            "bad.vcontract:5:5: error: expected the field's tag before its name (e.g. `1 b: string`)"
        ),
        (
            "tag 0",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    0 b: string\n}\n",
            "bad.vcontract:5:5: error: field 'b' has tag 0: tags are 1...536870911"
        ),
        (
            "a tag of 2^29",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    536870912 b: string\n}\n",
            "bad.vcontract:5:5: error: field 'b' has tag 536870912"
        ),
        (
            "a default of the wrong type",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: int = \"five\"\n}\n",
            "bad.vcontract:5:16: error: bad default for 'b': expected a whole number, e.g. 20"
        ),
        (
            "a default that is not a case",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: E = blue\n}\n/// E.\nenum E {\n    red\n}\n",
            "bad.vcontract:5:14: error: bad default for 'b': 'blue' is not a case of E (red)"
        ),
        (
            "a default on a list",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: [int] = 1\n}\n",
            "bad.vcontract:5:18: error: a default is for a single value"
        ),
        (
            "a field without a doc",
            "contract shop\n/// A.\nmessage A {\n    1 b: string\n}\n",
            "bad.vcontract:4:5: error: field 'b' has no /// doc comment"
        ),
        (
            "a missing type",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b:\n}\n",
            "bad.vcontract:6:1: error: expected a type"
        ),
        (
            "no contract line",
            "/// A.\nmessage A {\n}\n",
            "bad.vcontract:1:1: error: a /// comment documents the message"
        ),
        (
            "an unterminated string",
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: string = \"open\n}\n",
            "bad.vcontract:5:19: error: unterminated string"
        ),
        (
            "an enum case named unknown",
            "contract shop\n/// E.\nenum E {\n    unknown\n}\n",
            "bad.vcontract:4:5: error: case name 'unknown' must start"
        ),
        (
            "a bound on an int",
            "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: int(maxBytes: 4)\n}\n",
            "bad.vcontract:5:24: error: field 'b' is int: only string and bytes fields have a bound in bytes"
        ),
        (
            "a bound of 0",
            "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: string(maxBytes: 0)\n}\n",
            "bad.vcontract:5:27: error: field 'b' has bound 0: a bound is 1...4294967295 bytes"
        ),
        (
            "a bound past 2^32-1",
            "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: string(maxBytes: 4294967296)\n}\n",
            "bad.vcontract:5:27: error: field 'b' has bound 4294967296"
        ),
        (
            "a bound that is not maxBytes",
            "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: string(max: 4)\n}\n",
            "bad.vcontract:5:17: error: expected `maxBytes: N` inside '('"
        ),
        (
            "a default longer than its bound",
            "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: string(maxBytes: 2) = \"abc\"\n}\n",
            "bad.vcontract:5:27: error: the default of 'b' is longer than its bound of 2 bytes"
        ),
        (
            "an input holding a message that is not one",
            "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: B\n}\n/// B.\nmessage B {\n    /// C.\n    1 c: string\n}\n",
            "bad.vcontract:5:10: error: input 'A' holds message 'B': declare it `input` too"
        ),
        (
            "a default on a wire.ErrorCode field",
            "contract shop\n/// A.\nmessage A {\n    /// C.\n    1 c: wire.ErrorCode = notFound\n}\n",
            "bad.vcontract:5:27: error: bad default for 'c': a wire.ErrorCode field cannot have a default"
        ),
        (
            "a type of wire other than ErrorCode",
            "contract shop\n/// A.\nmessage A {\n    /// C.\n    1 c: wire.Frame\n}\n",
            "bad.vcontract:5:10: error: unknown type 'wire.Frame': expected one of the framework's types: wire.ErrorCode"
        ),
        (
            "a contract called wire",
            "contract wire\n/// A.\nmessage A {\n    /// C.\n    1 c: string\n}\n",
            "bad.vcontract:1:10: error: contract 'wire' is the framework's (wire.ErrorCode): choose another name"
        ),
    ])
    func badInput_isReportedAtItsLineAndColumn(what: String, text: String, expected: String) {
        let found = Self.diagnostics(text)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(what): got \(found)")
    }

    @Test func anotherContractsType_resolvesOnlyWhenThatContractDeclaresIt() {
        let other = "contract catalog\n/// S.\nenum Service {\n    gp\n}\n"
        let good = "contract shop\n/// A.\nmessage A {\n    /// S.\n    1 s: catalog.Service = gp\n}\n"
        #expect(Self.diagnostics(good, others: [other]) == [])
        let bad = "contract shop\n/// A.\nmessage A {\n    /// S.\n    1 s: catalog.Weekday\n}\n"
        #expect(
            Self.diagnostics(bad, others: [other]).first?.hasPrefix(
                "bad.vcontract:5:10: error: unknown type 'catalog.Weekday': expected a message or enum declared in contract 'catalog'"
            ) == true)
    }

    @Test func everyProblemOfEveryFile_isReportedInOneRun() {
        let found = Self.diagnostics(
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: nope\n    /// C.\n    1 c: int\n}\n",
            others: ["contract other\nmessage\n"])
        #expect(found.count == 3, "\(found)")
    }
}
