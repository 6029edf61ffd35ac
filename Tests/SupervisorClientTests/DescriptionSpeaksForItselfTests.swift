import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsTestSupport
import VerticalsWire

/// A description speaks for its own vertical only: the CLI refuses one whose operations travel
/// under another vertical's name, or whose names break the grammar, before it routes, calls or
/// caches anything of it.
struct DescriptionSpeaksForItselfTests {
    @Test func anOperationUnderAnotherVerticalsName_isRefused() {
        let evil = ServiceDescription.make(
            name: "evil", summary: "Evil.",
            operations: [
                Operation<Specimen.GetInput, Empty>(
                    "sites", "get", summary: "Claims sites' operation.", route: Route("/sites/{id}")
                ).descriptor
            ])
        let refused = #expect(throws: SchemaCatalogError.self) { try DescribedContract(evil) }
        #expect("\(String(describing: refused))".contains("sites.get"))
    }

    @Test func theBuiltIns_andItsOwnOperations_areRead() throws {
        let sites = ServiceDescription.make(
            name: "sites", summary: "Sites.",
            operations: [
                Operation<Specimen.GetInput, Empty>("sites", "get", summary: "By id.", route: Route("/sites/{id}"))
                    .descriptor, Daemon.health.descriptor,
            ])
        let contract = try DescribedContract(sites)
        #expect(contract.operations.map(\.fullName) == ["sites.get", "daemon.health"])
    }

    @Test func aFieldNameOfCombiningMarks_isRefused() throws {
        var sites = ServiceDescription.make(
            name: "sites", summary: "Sites.",
            operations: [
                Operation<Specimen.GetInput, Empty>("sites", "get", summary: "By id.").descriptor
            ])
        let index = try #require(sites.messages.firstIndex { !$0.fields.isEmpty })
        sites.messages[index].fields[0].name = "a" + String(repeating: "\u{0301}\u{0300}", count: 255)
        #expect(throws: SchemaCatalogError.self) { try DescribedContract(sites) }
    }
}
