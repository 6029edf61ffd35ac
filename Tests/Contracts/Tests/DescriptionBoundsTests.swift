import Testing
import VerticalsClient
import VerticalsContract
import VerticalsWire

/// Every description the suite and the framework serve is within the bounds and the grammar of
/// names a peer holds a description to, so honest peers judge each other as before.
struct DescriptionBoundsTests {
    @Test func everyLockedDescription_isWithinTheBounds() {
        let lock = ContractLock.current()
        #expect(!lock.services.isEmpty)
        for description in lock.services {
            #expect(DescriptionBounds.problem(description) == nil, "\(description.name)")
        }
    }

    /// A described message and enumeration, each judged the same way: its count of parts, then its
    /// name, then each part's name, each problem naming where it is.
    @Test func aMessageOrEnumeration_outsideTheBounds_isNamedWithItsPlace() {
        let most = (fields: DescriptionBounds.maxFieldsPerMessage, cases: DescriptionBounds.maxCasesPerEnum)
        let cases: [(Daemon.Description, String?)] = [
            (Self.shop(fields: ["name", "price"], cases: ["red"]), nil),
            (
                Self.shop(fields: Array(repeating: "name", count: most.fields + 1), cases: []),
                "messages[0] has \(most.fields + 1) fields; at most \(most.fields)"
            ),
            (
                Self.shop(fields: [], cases: Array(repeating: "red", count: most.cases + 1)),
                "enums[0] has \(most.cases + 1) cases; at most \(most.cases)"
            ),
            (Self.shop(fields: ["name", "9lives"], cases: []), "messages[0].fields[1].name is not a name"),
            (Self.shop(fields: [], cases: ["red", "dark red"]), "enums[0].cases[1] is not a name"),
            (Self.shop(fields: [], cases: [], message: "shop.2Item"), "messages[0].name is not a name"),
            (Self.shop(fields: [], cases: [], enumeration: "shop.Col our"), "enums[0].name is not a name"),
        ]
        for (description, problem) in cases {
            let found = DescriptionBounds.problem(description)
            if let problem {
                #expect(found?.hasPrefix(problem) == true, "\(String(describing: found)), not \(problem)")
            } else {
                #expect(found == nil)
            }
        }
    }

    /// A description of one message holding `fields` and one enumeration of `cases`.
    static func shop(
        fields: [String], cases: [String], message: String = "shop.Item", enumeration: String = "shop.Colour"
    ) -> Daemon.Description {
        Daemon.Description(
            name: "shop", summary: "", operations: [],
            messages: [
                Daemon.MessageInfo(
                    name: message, doc: "",
                    fields: fields.enumerated().map {
                        .init(tag: UInt64($0.offset + 1), name: $0.element, type: "string", presence: .optional)
                    })
            ],
            enums: [Daemon.EnumInfo(name: enumeration, cases: cases)])
    }
}
