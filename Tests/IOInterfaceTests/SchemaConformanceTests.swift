import IOInterface
import Testing
import VerticalsContract
import VerticalsWire

@Suite("Every DTO's direct codec agrees with its schema")
struct SchemaConformanceTests {
    @Test("SchemaConformance finds nothing", arguments: Fixtures.all)
    func example_conformsToItsSchema(example: Example) {
        let findings = SchemaConformance.check(example.value)
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test(
        "full examples populate every field, optional and repeated ones included",
        arguments: Fixtures.all.filter { $0.kind == .full && !type(of: $0.value).schema.fields.isEmpty })
    func fullExample_populatesEveryField(example: Example) throws {
        let schema = type(of: example.value).schema
        let value = try MessageValue(decoding: example.value.encodedBody(), as: schema, strict: true)
        for field in schema.fields {
            switch value[field.tag] {
            case nil: Issue.record("\(schema.name).\(field.name) is absent")
            case .list(let elements)? where elements.isEmpty: Issue.record("\(schema.name).\(field.name) is empty")
            default: break
            }
        }
    }

    @Test(
        "every Input, Output and Event of every operation has examples",
        arguments: (Contracts.all + Contracts.control).flatMap { $0.operations })
    func operation_hasExamplesOfItsTypes(operation: OperationDescriptor) {
        for type in [operation.input, operation.output] + (operation.event.map { [$0] } ?? []) {
            let kinds = Fixtures.all.filter { $0.schemaName == type.schema.name }.map(\.kind)
            #expect(kinds.contains(.full) && kinds.contains(.minimal), "\(operation.fullName): \(type.schema.name)")
        }
    }

    @Test("examples survive the JSON form", arguments: Fixtures.all)
    func example_roundTripsThroughJSON(example: Example) throws {
        try roundTrip(example.value)
    }

    private func roundTrip<M: WireMessage>(_ value: M) throws {
        #expect(try M(json: value.jsonString()) == value)
        #expect(try M(json: value.jsonString(pretty: true)) == value)
    }
}

extension OperationDescriptor: CustomTestStringConvertible {
    public var testDescription: String { fullName }
}
