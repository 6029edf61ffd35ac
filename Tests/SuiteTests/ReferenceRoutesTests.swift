import IOInterface
import Testing
import VerticalsSupervisorClient

/// The reference contracts' routes, as `svc-supervisor open` matches URLs against them: no URL
/// matches two equally well, and every route names scalar fields of its Input.
struct ReferenceRoutesTests {
    let table = RouteTable(contracts: Contracts.all)

    @Test func contracts_haveNoTwoRoutesThatOneURLMatchesEquallyWell() {
        #expect(table.conflicts().map { "\($0.0.summary) / \($0.1.summary)" } == [])
    }

    @Test func contracts_everyRouteNamesScalarFieldsOfItsInput() {
        for entry in table.entries {
            let fields = entry.operation.input.schema.fields
            var named = entry.route.aliases.map(\.value)
            for segment in entry.route.segments {
                if case .parameter(let name) = segment { named.append(entry.route.field(named: name)) }
            }
            for name in named {
                let field = fields.first { $0.name == name }
                #expect(
                    field != nil, "\(entry.summary) names \(name), not a field of \(entry.operation.input.schema.name)")
                if case .message = field?.type { Issue.record("\(entry.summary): \(name) is a message") }
            }
        }
    }
}
