import IOInterface
import Testing
import VerticalsSupervisorClient

/// Every reference route lies under its own vertical's name, so `open` serves every one of them
/// (a route outside it is served by no vertical: `RouteTable.owns(_:of:)`).
struct ReferenceRoutePrefixTests {
    @Test func contracts_everyRouteStartsWithItsVerticalsName() {
        let table = RouteTable(contracts: Contracts.all)
        #expect(!table.entries.isEmpty)
        for entry in table.entries {
            #expect(
                RouteTable.owns(entry.route, of: entry.operation.service),
                "\(entry.summary) is outside /\(entry.operation.service)/")
        }
    }
}
