import Testing
import VerticalsContractGen

/// `input` messages and `string(maxBytes: N)`: the bound a field's line declares, or the default
/// every text field of an `input` gets, reaches the schema and the direct decoder.
@Suite struct InputBoundTests {
    static let contract = """
        contract shop

        /// The Input of ``Shop/find``.
        input FindInput {
            /// Text the item's name contains.
            1 text: string
            /// The caller's passphrase.
            2 passphrase: string(maxBytes: 1024)
            /// Tags, each at most 64 bytes.
            3 tags: [string(maxBytes: 64)]
            /// A note, when given.
            4 note: string(maxBytes: 10)?
            /// The colour.
            5 colour: Colour = red
            /// The page size: a number has no bound.
            6 limit: int = 20
            /// Where to look.
            7 place: Place?
        }

        /// A place an Input holds.
        input Place {
            /// Its name.
            1 name: string
        }

        /// An Output: no bound unless declared.
        message Item {
            /// Its name.
            1 name: string
            /// Its label, bounded.
            2 label: bytes(maxBytes: 16)
        }

        /// A colour.
        enum Colour {
            /// Like blood.
            red
        }
        """

    @Test func declaredAndDefaultBounds_reachTheSchemaAndTheDecoder() throws {
        GeneratedSwift.expect(
            try GeneratedSwift.of(Self.contract, path: "shop.vcontract"),
            contains: [
                ".required(1, \"text\", .string, maxBytes: 4096, doc:",
                ".required(2, \"passphrase\", .string, maxBytes: 1024, doc:",
                ".repeated(3, \"tags\", .string, maxBytes: 64, doc:",
                ".optional(4, \"note\", .string, maxBytes: 10, doc:",
                ".defaulted(5, \"colour\", .enumeration(Colour.schema), .enumeration(\"red\"), maxBytes: 4096, doc:",
                ".defaulted(6, \"limit\", .int, .int(20), doc:",
                ".optional(7, \"place\", .message(Place.self), doc:",
                "case 1: text = try body.read(maxBytes: 4096)",
                "case 2: passphrase = try body.read(maxBytes: 1024)",
                "case 3: try body.append(to: &tags, maxBytes: 64)",
                "case 6: limit = try body.read()",
                "case 7: place = try body.read()",
                ".required(1, \"name\", .string, doc: \"Its name.\")",
                ".required(2, \"label\", .bytes, maxBytes: 16, doc:",
                "case 1: name = try body.read()",
                "case 2: label = try body.read(maxBytes: 16)",
            ])
    }

    @Test func anOutputHoldingAnInput_isFine() {
        let text =
            "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: [B]\n}\n/// B.\ninput B {\n    /// C.\n    1 c: string\n}\n"
        #expect(ContractDiagnosticTests.diagnostics(text) == [])
    }
}
