import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit

/// `can-i-deploy`'s one rule, both directions: what a caller was built against (A) judged as a
/// pair with what the callee's build serves (B), for the operations the caller declares only.
@Suite("can-i-deploy's rule: a caller built against A, a callee serving B")
struct DeployCheckTests {
    /// `shop` as a caller declares it: `get(GetInput) -> Item`; the served build also has `list`.
    static func shop(declaringOnlyGet: Bool = false) -> Daemon.Description {
        var description = Daemon.Description(
            name: "shop", summary: "",
            operations: [
                .init(
                    name: "get", summary: "", input: "shop.GetInput", output: "shop.Item", errors: [.notFound],
                    service: "shop"),
                .init(
                    name: "list", summary: "", input: "shop.GetInput", output: "shop.Item", errors: [], service: "shop"),
            ],
            messages: [
                .init(
                    name: "shop.GetInput", doc: "",
                    fields: [.init(tag: 1, name: "id", type: "string", presence: .required)]),
                .init(
                    name: "shop.Item", doc: "",
                    fields: [
                        .init(tag: 1, name: "id", type: "string", presence: .required),
                        .init(tag: 2, name: "note", type: "string", presence: .optional),
                    ]),
            ],
            enums: [])
        if declaringOnlyGet { description.operations.removeAll { $0.name != "get" } }
        return description
    }

    static func edit(_ d: inout Daemon.Description, _ message: String, _ body: (inout [Daemon.FieldInfo]) -> Void) {
        let index = d.messages.firstIndex { $0.name == message }!
        body(&d.messages[index].fields)
    }

    /// One row of the table: how A (the caller's build) and B (the callee's) differ from today's
    /// `shop`, and what the edge comes to.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let breaking: ContractPair.Difference?
        var warns: ContractPair.Difference? = nil
        var builtAgainst: @Sendable (inout Daemon.Description) -> Void = { _ in }
        var serves: @Sendable (inout Daemon.Description) -> Void = { _ in }
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "same contract", breaking: nil),
        // The callee is newer than what the caller was built against.
        Row(
            name: "callee adds an optional Input field", breaking: nil,
            serves: { d in
                edit(&d, "shop.GetInput") {
                    $0.append(.init(tag: 2, name: "locale", type: "string", presence: .optional))
                }
            }),
        Row(
            name: "callee adds a required Input field", breaking: .requiredFieldOnlyReaderHas,
            serves: { d in
                edit(&d, "shop.GetInput") {
                    $0.append(.init(tag: 2, name: "locale", type: "string", presence: .required))
                }
            }),
        Row(
            name: "callee adds an Output field", breaking: nil,
            serves: { d in
                edit(&d, "shop.Item") {
                    $0.append(.init(tag: 3, name: "price", type: "int", presence: .defaulted, defaultValue: "0"))
                }
            }),
        Row(
            name: "callee drops an optional Output field the caller reads", breaking: nil,
            serves: { d in
                edit(&d, "shop.Item") { $0.removeAll { $0.name == "note" } }
            }),
        Row(
            name: "callee changes an Input field's type", breaking: .typeDiffers,
            serves: { d in
                edit(&d, "shop.GetInput") { $0[0].type = "int" }
            }),
        Row(
            name: "callee drops an operation the caller declares", breaking: .operationNotServed,
            serves: { d in
                d.operations.removeAll { $0.name == "get" }
            }),
        Row(
            name: "callee drops an operation the caller does not declare", breaking: nil,
            serves: { d in
                d.operations.removeAll { $0.name == "list" }
            }),
        Row(
            name: "callee stops declaring an error code", breaking: nil, warns: .errorCodeOnlyCallerHas,
            serves: { d in
                d.operations[0].errors = []
            }),
        // The caller was built against a newer contract than the callee serves.
        Row(
            name: "caller built with a required Output field the callee never sends",
            breaking: .requiredFieldOnlyReaderHas,
            builtAgainst: { d in
                edit(&d, "shop.Item") { $0.append(.init(tag: 3, name: "price", type: "int", presence: .required)) }
            }),
        Row(
            name: "caller built with an operation the callee does not serve yet", breaking: .operationNotServed,
            builtAgainst: { d in
                d.operations.append(
                    .init(
                        name: "put", summary: "", input: "shop.GetInput", output: "shop.Item", errors: [],
                        service: "shop"))
            }),
        // The callee skips it: warned, not refused (PROTOCOL.md § 8).
        Row(
            name: "caller built with an optional Input field the callee does not know yet", breaking: nil,
            warns: .fieldOnlyWriterHas,
            builtAgainst: { d in
                edit(&d, "shop.GetInput") {
                    $0.append(.init(tag: 2, name: "locale", type: "string", presence: .optional))
                }
            }),
        Row(
            name: "caller built when an Input field was optional, the callee now requires it",
            breaking: .readerRequiresWhatWriterMayOmit,
            builtAgainst: { d in edit(&d, "shop.GetInput") { $0[0].presence = .optional } },
            serves: { d in edit(&d, "shop.GetInput") { $0[0].presence = .required } }),
    ]

    @Test("the edge is judged by ContractPair.compare(builtAgainst:serves:)", arguments: rows)
    func edge_isBreakingExactlyWhenTheRuleSays(row: Row) {
        var builtAgainst = Self.shop(declaringOnlyGet: true)
        row.builtAgainst(&builtAgainst)
        var serves = Self.shop()
        row.serves(&serves)

        let edge = DeployCheck.judge(caller: "orders", builtAgainst: builtAgainst, serves: serves)

        #expect(edge.caller == "orders" && edge.callee == "shop")
        switch (row.breaking, edge.outcome) {
        case (nil, .compatible(let findings)):
            #expect(
                findings.allSatisfy { $0.verdict != .refuse && $0.difference != .operationNotDeclared }, "\(findings)")
            #expect(
                findings.filter { $0.verdict == .warn }.map(\.difference) == (row.warns.map { [$0] } ?? []),
                "\(findings)")
        case (let difference?, .breaking(let findings)):
            #expect(findings.contains { $0.difference == difference }, "\(findings)")
            #expect(findings.allSatisfy { $0.verdict == .refuse })
        default:
            Issue.record("expected \(row.breaking.map { "\($0)" } ?? "compatible"), got \(edge)")
        }
    }

    @Test func answer_isYesOnlyWhenEveryEdgeWasComparedAndNoneBreaks() {
        let ok = DeployEdge(caller: "a", callee: "b", outcome: .compatible([]))
        let broken = DeployEdge(
            caller: "c", callee: "b",
            outcome: .breaking([
                .init(.typeDiffers, .request, operation: "x", place: "X.y", "int to one, string to the other")
            ]))
        let unknown = DeployEdge(caller: "d", callee: "b", outcome: .unknown("d cannot be reached"))

        #expect(DeployAnswer([]) == .yes)
        #expect(DeployAnswer([ok]) == .yes)
        #expect(DeployAnswer([ok, unknown]) == .unknown)
        #expect(DeployAnswer([unknown, broken, ok]) == .no)
    }
}
