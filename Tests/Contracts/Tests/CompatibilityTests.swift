import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit

/// The comparator behind the guard, on synthetic before/after descriptions: one change of
/// each kind, named as such, breaking or not as a deployed peer would see it.
@Suite("Compatibility comparator")
struct CompatibilityTests {
    /// A small service: `list(ListInput) -> ItemList` with a nested message and an enum.
    static func before() -> Daemon.Description {
        Daemon.Description(
            name: "shop", summary: "A test service.",
            operations: [
                .init(
                    name: "list", summary: "", input: "shop.ListInput", output: "shop.ItemList",
                    errors: [.invalidInput, .notFound], service: "shop"),
                .init(
                    name: "get", summary: "", input: "shop.GetInput", output: "shop.Item", errors: [.notFound],
                    service: "shop"),
            ],
            messages: [
                .init(
                    name: "shop.ListInput", doc: "",
                    fields: [
                        .init(tag: 1, name: "query", type: "string", presence: .required, maxBytes: 100),
                        .init(tag: 2, name: "limit", type: "int", presence: .defaulted, defaultValue: "20"),
                        .init(tag: 3, name: "kind", type: "enum shop.Kind", presence: .optional),
                    ]),
                .init(
                    name: "shop.ItemList", doc: "",
                    fields: [
                        .init(tag: 1, name: "items", type: "message shop.Item", presence: .repeated)
                    ]),
                .init(
                    name: "shop.Item", doc: "",
                    fields: [
                        .init(tag: 1, name: "id", type: "string", presence: .required),
                        .init(tag: 2, name: "note", type: "string", presence: .optional, maxBytes: 100),
                    ]),
                .init(
                    name: "shop.GetInput", doc: "",
                    fields: [.init(tag: 1, name: "id", type: "string", presence: .required)]),
            ],
            enums: [.init(name: "shop.Kind", cases: ["food", "tools"])])
    }

    /// One change to `before()` and what the guard must call it.
    struct Change: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: Compatibility.Finding.Kind
        let place: String
        let edit: @Sendable (inout Daemon.Description) -> Void
        var testDescription: String { name }
    }

    static func field(
        _ d: inout Daemon.Description, _ message: String, _ tag: UInt64, _ edit: (inout Daemon.FieldInfo) -> Void
    ) {
        let m = d.messages.firstIndex { $0.name == message }!
        let f = d.messages[m].fields.firstIndex { $0.tag == tag }!
        edit(&d.messages[m].fields[f])
    }

    static let changes: [Change] = [
        Change(name: "operation removed", kind: .operationRemoved, place: "get") {
            $0.operations.removeAll { $0.name == "get" }
        },
        Change(name: "operation renamed", kind: .operationRemoved, place: "get") { $0.operations[1].name = "fetch" },
        Change(name: "operation moved to another service name", kind: .operationRemoved, place: "get") {
            $0.operations[1].service = "daemon"
        },
        Change(name: "field removed", kind: .fieldRemoved, place: "shop.Item.note") { d in
            let m = d.messages.firstIndex { $0.name == "shop.Item" }!
            d.messages[m].fields.removeAll { $0.tag == 2 }
        },
        Change(name: "tag reused", kind: .tagReused, place: "shop.ListInput.limit") { d in
            field(&d, "shop.ListInput", 2) { $0.name = "pageSize" }
        },
        Change(name: "type changed", kind: .typeChanged, place: "shop.ListInput.limit") { d in
            field(&d, "shop.ListInput", 2) { $0.type = "uint" }
        },
        Change(name: "nested type changed", kind: .typeChanged, place: "shop.Item.id") { d in
            field(&d, "shop.Item", 1) { $0.type = "int" }
        },
        Change(name: "single value became a list", kind: .typeChanged, place: "shop.Item.note") { d in
            field(&d, "shop.Item", 2) { $0.presence = .repeated }
        },
        Change(name: "optional made required", kind: .madeRequired, place: "shop.Item.note") { d in
            field(&d, "shop.Item", 2) { $0.presence = .required }
        },
        Change(name: "required field added", kind: .madeRequired, place: "shop.ListInput.cursor") { d in
            let m = d.messages.firstIndex { $0.name == "shop.ListInput" }!
            d.messages[m].fields.append(.init(tag: 4, name: "cursor", type: "string", presence: .required))
        },
        Change(name: "default changed", kind: .defaultChanged, place: "shop.ListInput.limit") { d in
            field(&d, "shop.ListInput", 2) { $0.defaultValue = "50" }
        },
        Change(name: "error code removed", kind: .errorCodeRemoved, place: "list") {
            $0.operations[0].errors = [.invalidInput]
        },
        Change(name: "enum case removed", kind: .enumCaseRemoved, place: "shop.ListInput.kind") {
            $0.enums[0].cases = ["food"]
        },
        Change(name: "an Input's bound lowered", kind: .boundBroken, place: "shop.ListInput.query") { d in
            field(&d, "shop.ListInput", 1) { $0.maxBytes = 50 }
        },
        Change(name: "an Output's bound raised", kind: .boundBroken, place: "shop.Item.note") { d in
            field(&d, "shop.Item", 2) { $0.maxBytes = 200 }
        },
        Change(name: "an Output's bound removed", kind: .boundBroken, place: "shop.Item.note") { d in
            field(&d, "shop.Item", 2) { $0.maxBytes = nil }
        },
    ]

    @Test("a breaking change is named", arguments: changes)
    func breakingChange_isNamedWithItsKindAndPlace(change: Change) {
        var after = Self.before()
        change.edit(&after)
        let findings = Compatibility.compare(Self.before(), after)
        let breaking = findings.filter(\.isBreaking)
        #expect(breaking.contains { $0.kind == change.kind && $0.place == change.place }, "\(findings)")
        #expect(breaking.allSatisfy { $0.service == "shop" })
    }

    @Test func aRemovedService_isBreaking() {
        let findings = Compatibility.compare(
            old: ContractLock(services: [Self.before()]), new: ContractLock(services: []))
        #expect(findings.map(\.kind) == [.serviceRemoved])
    }

    /// What pagination will add: page size and cursor on list operations, a next-page cursor
    /// on their answers, plus a new operation, error code and enum case.
    @Test func additiveChanges_likePagination_passWithoutABreakingFinding() {
        var after = Self.before()
        let input = after.messages.firstIndex { $0.name == "shop.ListInput" }!
        after.messages[input].fields += [
            .init(tag: 4, name: "pageSize", type: "int", presence: .defaulted, defaultValue: "50"),
            .init(tag: 5, name: "cursor", type: "string", presence: .optional),
        ]
        let output = after.messages.firstIndex { $0.name == "shop.ItemList" }!
        after.messages[output].fields.append(.init(tag: 2, name: "nextCursor", type: "string", presence: .optional))
        after.operations[0].errors.append(.resourceExhausted)
        after.enums[0].cases.append("toys")
        after.operations.append(
            .init(name: "count", summary: "", input: "shop.GetInput", output: "shop.Item", errors: [], service: "shop"))
        let findings = Compatibility.compare(Self.before(), after)
        #expect(findings.filter(\.isBreaking).isEmpty, "\(findings)")
        #expect(
            Set(findings.map(\.kind)) == [.fieldAdded, .errorCodeAdded, .enumCaseAdded, .operationAdded], "\(findings)")
    }

    /// Bounds declared where there were none (what every Input's text got at once), an Input's
    /// raised, an Output's lowered: reported, never refused.
    @Test func boundsThatNoPeerCanTripOn_areAdditive() {
        var after = Self.before()
        Self.field(&after, "shop.ListInput", 1) { $0.maxBytes = 200 }
        Self.field(&after, "shop.GetInput", 1) { $0.maxBytes = 4096 }
        Self.field(&after, "shop.Item", 2) { $0.maxBytes = 50 }
        let findings = Compatibility.compare(Self.before(), after)
        #expect(findings.filter(\.isBreaking).isEmpty, "\(findings)")
        #expect(findings.map(\.kind) == [.boundChanged, .boundChanged, .boundChanged], "\(findings)")
    }

    @Test func renamingAMessageType_withTheSameFields_isNotBreaking() {
        var after = Self.before()
        let item = after.messages.firstIndex { $0.name == "shop.Item" }!
        after.messages[item].name = "shop.Product"
        after.operations[1].output = "shop.Product"
        Self.field(&after, "shop.ItemList", 1) { $0.type = "message shop.Product" }
        #expect(Compatibility.compare(Self.before(), after).isEmpty)
    }

    @Test func todaysContracts_areCompatibleWithThemselves() {
        #expect(Compatibility.compare(old: .current(), new: .current()).isEmpty)
    }
}
