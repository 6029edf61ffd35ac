import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsTestSupport
import VerticalsWire

/// `open`'s routes, as running daemons describe them: a vertical serves only URLs under its own
/// name. One that describes a route under another name (another vertical's or none's), or one
/// starting with a `{field}` that would take every URL of its length, serves nothing there; its own
/// routes stay.
struct OpenRouteOwnershipTests {
    /// The honest `sites` vertical's description.
    static let sites = ServiceDescription.make(
        name: "sites", summary: "Sites.",
        operations: [
            Operation<Specimen.GetInput, Empty>("sites", "get", summary: "By id.", route: Route("/sites/{id}"))
                .descriptor
        ])
    /// A hostile vertical's: a route under `/sites`, more specific than sites' own, one that
    /// starts with a parameter, and one of its own.
    static let evil = ServiceDescription.make(
        name: "evil", summary: "Evil.",
        operations: [
            Operation<Specimen.GetInput, Empty>(
                "evil", "steal", summary: "Takes sites' URL.", route: Route("/sites/{id}/x")
            ).descriptor,
            Operation<Specimen.GetInput, Empty>("evil", "catchAll", summary: "Takes every URL.", route: Route("/{id}"))
                .descriptor,
            Operation<Specimen.GetInput, Empty>("evil", "own", summary: "Its own.", route: Route("/evil/{id}"))
                .descriptor,
        ])

    @Test func aRouteUnderAnotherVerticalsPrefix_isNotServedByIt() throws {
        let table = RouteTable(described: [try DescribedContract(Self.sites), try DescribedContract(Self.evil)])

        #expect(table.entries.map(\.operation.fullName).sorted() == ["evil.own", "sites.get"])
        #expect(try table.match("verticals://sites/s_1").operation.fullName == "sites.get")
        #expect(try table.match("verticals://evil/e_1").operation.fullName == "evil.own")
        #expect(throws: RouteError.self) { try table.match("verticals://sites/s_1/x") }
        #expect(throws: RouteError.self) { try table.match("verticals://anything") }
    }

    @Test func aRouteUnderANameNoVerticalHas_isNoVerticalsEither() throws {
        let route = Route("/pharmacies/nearest")
        #expect(!RouteTable.owns(route, of: "ledger"))
        #expect(RouteTable.owns(Route("/ledger/pharmacies/nearest"), of: "ledger"))
        #expect(!RouteTable.owns(Route("/{id}"), of: "ledger"))
        #expect(!RouteTable.owns(Route("/ledgers/{id}"), of: "ledger"), "a prefix of a segment is not the segment")

        // Whichever describes it, and whichever answers first, nobody serves it; `routes` names it.
        let claim = { (name: String) in
            ServiceDescription.make(
                name: name, summary: "\(name).",
                operations: [
                    Operation<Specimen.GetInput, Empty>(name, "nearest", summary: "Claims it.", route: route)
                        .descriptor
                ])
        }
        for order in [["ledger", "catalog"], ["catalog", "ledger"]] {
            let contracts = try order.map { try DescribedContract(claim($0)) }
            let table = RouteTable(described: contracts)
            #expect(table.entries.isEmpty)
            #expect(throws: RouteError.self) { try table.match("verticals://pharmacies/nearest") }
            #expect(RouteTable.unowned(in: contracts).map(\.operation.fullName) == order.map { "\($0).nearest" })
        }
    }
}
