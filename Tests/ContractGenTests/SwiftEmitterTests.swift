import Testing
import VerticalsContractGen

/// What one line of a contract becomes: the property with its doc, the init parameter, the
/// schema entry with its doc, and the codec lines a person would have written.
@Suite struct SwiftEmitterTests {
    static let contract = """
        // A shop: comments with two slashes are for the file's readers only.
        contract shop

        /// The Input of ``Shop/find``.
        ///
        /// A second paragraph stays in Swift's doc, not in `describe`.
        message FindInput: Hashable {
            /// Text the item's name contains,
            /// ignoring case.
            1 text: string
            /// The page size.
            2 limit: int = 20
            /// Only this colour, when given.
            3 colour: Colour?
            /// Tags, any of which matches.
            4 tags: [string]
            /// The colour when none is given.
            5 fallback: Colour = red
            /// The carrier's \"body\" field: a name the codec uses for its own parameter.
            6 body: bytes?
        }

        /// A colour.
        enum Colour {
            /// Like blood.
            red
            green
        }
        """

    @Test func aMessage_becomesAStructWithDocsSchemaAndCodec() throws {
        GeneratedSwift.expect(
            try GeneratedSwift.of(Self.contract),
            contains: [
                "extension Shop {",
                "    /// The Input of ``Shop/find``.\n    ///\n    /// A second paragraph stays in Swift's doc, not in `describe`.\n    public struct FindInput: WireMessage, Hashable {",
                "        /// Text the item's name contains,\n        /// ignoring case.\n        public var text: String",
                "        public var colour: Colour?",
                "        public var tags: [String]",
                """
                        public init(
                            text: String, limit: Int = 20, colour: Colour? = nil, tags: [String], fallback: Colour = .red,
                            body: [UInt8]? = nil
                        ) {
                """,
                ".required(1, \"text\", .string, doc: \"Text the item's name contains, ignoring case.\"),",
                ".defaulted(2, \"limit\", .int, .int(20), doc: \"The page size.\"),",
                ".optional(3, \"colour\", .enumeration(Colour.schema), doc: \"Only this colour, when given.\"),",
                ".repeated(4, \"tags\", .string, doc: \"Tags, any of which matches.\"),",
                ".defaulted(5, \"fallback\", .enumeration(Colour.schema), .enumeration(\"red\"), doc: \"The colour when none is given.\"),",
                "doc: \"The Input of `Shop/find`.\")",
                "body.write(1, text)", "body.write(6, self.body)",
                "var limit = 20", "var fallback: Shop.Colour = .red", "var tags: [String] = []",
                "var bodyValue: [UInt8]?",
                "case 4: try body.append(to: &tags)", "case 2: limit = try body.read()",
                "guard let text else { throw WireDecodingError.missingField(tag: 1) }",
                "self.init(text: text, limit: limit, colour: colour, tags: tags, fallback: fallback, body: bodyValue)",
                "public static let schema = EnumSchema(\"shop.Colour\", knownCases)",
                "case .green: \"green\"",
            ])
    }

    @Test func anEnumeration_findsAKnownCaseByLengthThenBytes() throws {
        GeneratedSwift.expect(
            try GeneratedSwift.of(Self.contract),
            contains: [
                "public static func knownCase(named utf8: UnsafeBufferPointer<UInt8>) -> Colour? {",
                "switch utf8.count {",
                "case 3 where bytes(utf8, spell: \"red\"): .red",
                "case 5 where bytes(utf8, spell: \"green\"): .green",
                "default: nil",
            ])
    }

    @Test(arguments: [
        (["One line."], "One line."),
        (["Two lines", "of one sentence."], "Two lines of one sentence."),
        (["First.", "", "Second paragraph."], "First."),
        (["See ``Catalog/get``."], "See `Catalog/get`."),
    ])
    func describe_showsTheDocsFirstParagraphOnOneLine(doc: [String], expected: String) {
        #expect(SwiftEmitter.summary(of: doc) == expected)
    }
}
