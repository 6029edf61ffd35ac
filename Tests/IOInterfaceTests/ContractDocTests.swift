import IOInterface
import Testing
import VerticalsContract
import VerticalsWire

/// The docs written above each message and field in a `.vcontract` file reach its schema,
/// and from there `daemon.describe` and `svc-supervisor describe` (ServiceDescription copies
/// `MessageSchema.doc` and `FieldDescriptor.doc`): none of the reference contracts' is empty.
@Suite("Contract docs")
struct ContractDocTests {
    /// Every message the verticals' and the supervisor's operations reach, each once.
    static let schemas: [MessageSchema] = {
        var seen: Set<String> = []
        var schemas: [MessageSchema] = []
        func visit(_ schema: MessageSchema) {
            guard schema.name != Empty.schema.name, seen.insert(schema.name).inserted else { return }
            schemas.append(schema)
            for field in schema.fields {
                if case .message(let type) = field.type { visit(type.schema) }
            }
        }
        for operation in (Contracts.all + Contracts.control).flatMap({ $0.operations }) {
            for type in [operation.input, operation.output] + (operation.event.map { [$0] } ?? []) {
                visit(type.schema)
            }
        }
        return schemas
    }()

    @Test func theReferenceContracts_reachMessages() {
        #expect(Self.schemas.count > 40, "only \(Self.schemas.map(\.name))")
    }

    @Test("every message and field of the reference contracts has a doc", arguments: Self.schemas.map(\.name))
    func message_andEachField_haveADoc(name: String) throws {
        let schema = try #require(Self.schemas.first { $0.name == name })
        #expect(!schema.doc.isEmpty, "\(name) has no doc")
        for field in schema.fields {
            #expect(!field.doc.isEmpty, "\(name).\(field.name) has no doc")
            #expect(
                !field.doc.contains("\n") && !field.doc.contains("``"), "\(name).\(field.name): one line, no DocC links"
            )
        }
    }

    @Test func aFieldsDoc_isTheFirstParagraphOfItsComment() throws {
        let cursor = try #require(Clinics.SearchInput.schema.field(named: "cursor"))
        #expect(
            cursor.doc == "Where to continue: `ClinicList/nextCursor` of the previous page; absent for the first page. "
                + "Opaque; a cursor that was altered or made for another list or filter is `invalidInput`.")
        #expect(Clinics.OpeningHours.schema.doc == "One opening period on one weekday, in the clinic's own time zone.")
    }
}
