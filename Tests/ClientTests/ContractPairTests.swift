import Foundation
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSharedTesting

/// PROTOCOL.md § 8's table for one caller and one callee: the code's verdicts are the page's, row
/// by row and direction by direction, and the walk finds each kind of difference where it is.
@Suite("a caller and a callee: PROTOCOL.md § 8 in each direction")
struct ContractPairTests {
    /// Every row of the page's table: the kind in parentheses, then the first bold word of each
    /// direction's cell.
    static func pageTable() throws -> [String: (request: String, answer: String)] {
        let page = try String(contentsOfFile: ManifestFixture.repositoryRoot + "/docs/PROTOCOL.md", encoding: .utf8)
        var rows: [String: (request: String, answer: String)] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, let kind = cells[0].firstMatch(of: /\(`(\w+)`\)/)?.output.1,
                let request = cells[1].firstMatch(of: /\*\*(\w+)\*\*/)?.output.1,
                let answer = cells[2].firstMatch(of: /\*\*(\w+)\*\*/)?.output.1
            else { continue }
            rows[String(kind)] = (String(request), String(answer))
        }
        return rows
    }

    @Test("PROTOCOL.md § 8 gives each difference, in each direction, the verdict the code gives it")
    func theTableOnThePage_isTheCodes() throws {
        let rows = try Self.pageTable()
        for difference in ContractPair.Difference.allCases {
            let row = try #require(rows[difference.rawValue], "PROTOCOL.md § 8 has no row for `\(difference.rawValue)`")
            #expect(
                row.request == ContractPair.verdict(difference, .request).rawValue
                    && row.answer == ContractPair.verdict(difference, .answer).rawValue,
                "\(difference): the page says \(row), the code \(ContractPair.verdict(difference, .request)), \(ContractPair.verdict(difference, .answer))"
            )
        }
        #expect(
            rows.count == ContractPair.Difference.allCases.count, "rows the code does not know: \(rows.keys.sorted())")
    }

    @Test func directionMatters_exactlyWhereTheWriterHasSomethingTheReaderLacks() {
        let differing = ContractPair.Difference.allCases.filter {
            ContractPair.verdict($0, .request) != ContractPair.verdict($0, .answer)
        }
        #expect(Set(differing) == [.fieldOnlyWriterHas, .caseOnlyWriterHas])
    }

    /// A vertical `shop` with `get(GetInput) -> Item`.
    static func shop(_ edit: (inout Daemon.Description) -> Void = { _ in }) -> Daemon.Description {
        var description = Daemon.Description(
            name: "shop", summary: "",
            operations: [
                .init(
                    name: "get", summary: "", input: "shop.GetInput", output: "shop.Item", errors: [.notFound],
                    service: "shop")
            ],
            messages: [
                .init(
                    name: "shop.GetInput", doc: "",
                    fields: [
                        .init(tag: 1, name: "id", type: "string", presence: .required),
                        .init(tag: 2, name: "size", type: "enum shop.Size", presence: .optional),
                    ]),
                .init(
                    name: "shop.Item", doc: "",
                    fields: [
                        .init(tag: 1, name: "id", type: "string", presence: .required),
                        .init(tag: 2, name: "size", type: "enum shop.Size", presence: .optional),
                    ]),
            ],
            enums: [.init(name: "shop.Size", cases: ["small", "large"])])
        edit(&description)
        return description
    }

    static func fields(_ d: inout Daemon.Description, _ message: String, _ body: (inout [Daemon.FieldInfo]) -> Void) {
        let index = d.messages.firstIndex { $0.name == message }!
        body(&d.messages[index].fields)
    }

    @Test func aNewerCallersOptionalField_isAWarningNamingIt_andTheSameFieldInAnAnswerIsNothing() {
        let caller = Self.shop { d in
            Self.fields(&d, "shop.GetInput") {
                $0.append(.init(tag: 3, name: "locale", type: "string", presence: .optional))
            }
            Self.fields(&d, "shop.Item") { $0.append(.init(tag: 3, name: "price", type: "int", presence: .optional)) }
        }
        let findings = ContractPair.compare(builtAgainst: caller, serves: Self.shop())
        #expect(findings.map(\.difference) == [.fieldOnlyWriterHas, .optionalFieldOnlyReaderHas], "\(findings)")
        #expect(
            findings[0].verdict == .warn && findings[0].place == "shop.GetInput.locale"
                && findings[0].operation == "get")
        #expect(findings[1].verdict == .nothing && findings[1].direction == .answer)
    }

    @Test func anEnumerationCase_onlyTheCallerKnows_warnsInARequest_andIsNothingInAnAnswer() {
        let callee = Self.shop { d in d.enums[0].cases = ["small"] }
        let findings = ContractPair.compare(builtAgainst: Self.shop(), serves: callee)
        let request = findings.filter { $0.direction == .request }
        let answer = findings.filter { $0.direction == .answer }
        #expect(request.map(\.difference) == [.caseOnlyWriterHas] && request[0].verdict == .warn, "\(findings)")
        #expect(answer.map(\.difference) == [.caseOnlyReaderHas] && answer[0].verdict == .nothing, "\(findings)")
    }

    @Test func aRequiredFieldTheOtherSideNeverSends_refusesInBothDirections() {
        let callee = Self.shop { d in
            Self.fields(&d, "shop.GetInput") {
                $0.append(.init(tag: 3, name: "locale", type: "string", presence: .required))
            }
        }
        let caller = Self.shop { d in
            Self.fields(&d, "shop.Item") { $0.append(.init(tag: 3, name: "price", type: "int", presence: .required)) }
        }
        for (builtAgainst, serves, direction) in [
            (Self.shop(), callee, ContractPair.Direction.request), (caller, Self.shop(), .answer),
        ] {
            let findings = ContractPair.compare(builtAgainst: builtAgainst, serves: serves)
            #expect(findings.map(\.difference) == [.requiredFieldOnlyReaderHas], "\(findings)")
            #expect(findings.first?.verdict == .refuse && findings.first?.direction == direction)
        }
    }

    @Test func aTagWithAnotherName_aTypeAndADefault_refuse_andAnOperationServedByNoOne_too() {
        let renamed = Self.shop { d in Self.fields(&d, "shop.GetInput") { $0[0].name = "key" } }
        #expect(
            ContractPair.compare(builtAgainst: Self.shop(), serves: renamed).map(\.difference) == [
                .tagNamesAnotherField
            ])
        let retyped = Self.shop { d in Self.fields(&d, "shop.Item") { $0[0].type = "int" } }
        #expect(ContractPair.compare(builtAgainst: Self.shop(), serves: retyped).map(\.difference) == [.typeDiffers])
        let caller = Self.shop { d in
            d.operations.append(
                .init(name: "put", summary: "", input: "shop.Item", output: "shop.Item", errors: [], service: "shop"))
        }
        let findings = ContractPair.compare(builtAgainst: caller, serves: Self.shop())
        #expect(findings.map(\.difference) == [.operationNotServed] && findings[0].operation == "put", "\(findings)")
    }

    /// A callee's description is its answer: a chain of 10,000 messages, each holding the next, is
    /// judged without taking the stack (refused past the walk's depth, unread).
    @Test func aChainOfNestedMessages_deeperThanTheWalk_isRefusedNotFollowed() {
        func chain(_ count: Int) -> Daemon.Description {
            let messages = (0..<count).map { index in
                Daemon.MessageInfo(
                    name: "deep.M\(index)", doc: "",
                    fields: index == count - 1
                        ? [.init(tag: 1, name: "end", type: "string", presence: .optional)]
                        : [.init(tag: 1, name: "next", type: "message deep.M\(index + 1)", presence: .optional)])
            }
            return Daemon.Description(
                name: "deep", summary: "",
                operations: [
                    .init(name: "dig", summary: "", input: "deep.M0", output: "deep.M0", errors: [], service: "deep")
                ],
                messages: messages, enums: [])
        }
        let findings = ContractPair.compare(builtAgainst: chain(10_000), serves: chain(10_000))
        #expect(findings.map(\.difference) == [.typeDiffers, .typeDiffers], "\(findings.prefix(4))")
        #expect(findings.allSatisfy { $0.detail.contains("nested deeper than") && $0.verdict == .refuse })
    }
}
