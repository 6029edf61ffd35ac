import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsWire

/// `describe`'s messages are the wire form of ``MessageSchema``: every reference contract's
/// schemas survive the trip through `describe` equal, docs and defaults included, and the
/// generic codec reads, prints and writes the same over either.
@Suite("Schemas read back from describe")
struct DescribedSchemaTests {
    /// Every message the contract's operations reach, as compiled.
    static func compiled(_ contract: any ServiceContract.Type) -> SchemaCatalog {
        SchemaCatalog(
            reachableFrom: contract.operations.flatMap { operation in
                [operation.input.schema, operation.output.schema] + (operation.event.map { [$0.schema] } ?? [])
            })
    }

    @Test("schema → describe → schema is the same schema", arguments: ContractCase.all)
    func schemas_surviveDescribe(contract: ContractCase) throws {
        let description = ServiceDescription.of(contract.type)
        let rebuilt = try ServiceDescription.catalog(of: description)
        let compiled = Self.compiled(contract.type)
        #expect(rebuilt.messages.map(\.name) == compiled.messages.map(\.name))
        for (back, original) in zip(rebuilt.messages, compiled.messages) {
            #expect(back == original)
            #expect(back.doc == original.doc && back.fields.map(\.doc) == original.fields.map(\.doc))
        }
        #expect(rebuilt.enumerations == compiled.enumerations)
        #expect(rebuilt == compiled)
    }

    @Test("describe → schema → describe gives the same bytes", arguments: ContractCase.all)
    func describe_survivesSchemas(contract: ContractCase) throws {
        let description = ServiceDescription.of(contract.type)
        let rebuilt = try ServiceDescription.catalog(of: description)
        var again = description
        again.messages = rebuilt.messages.map(ServiceDescription.info)
        again.enums = rebuilt.enumerations.map(ServiceDescription.info)
        #expect(again.encodedBody() == description.encodedBody())
    }

    @Test("the generic codec reads every golden fixture alike over either schema", arguments: ContractCase.all)
    func goldenFixtures_readAlike(contract: ContractCase) throws {
        let rebuilt = try ServiceDescription.catalog(of: ServiceDescription.of(contract.type))
        for operation in contract.type.operations {
            let fixture = try files.readFixture(files.fixture(operation))
            for sample in fixture.samples where sample.role == "input" || sample.role == "output" {
                let compiled = sample.role == "input" ? operation.input.schema : operation.output.schema
                let described = try #require(rebuilt.message(named: compiled.name))
                let value = try MessageValue(decoding: sample.bytes, as: described, strict: true)
                #expect(value == (try MessageValue(decoding: sample.bytes, as: compiled, strict: true)))
                #expect(try value.json(as: described) == sample.json, "\(operation.fullName) \(sample.role)")
                #expect(try MessageValue(json: sample.json, as: described).encoded(as: described) == sample.bytes)
            }
        }
    }

    @Test func aRecursiveMessage_byName_decodesAtAnyDepth() throws {
        let catalog = try SchemaCatalog(
            messages: [MessageSchema("test.Node", [.repeated(1, "children", .message(named: "test.Node"))])],
            enumerations: [])
        let node = try #require(catalog.message(named: "test.Node"))
        let value = try MessageValue(json: #"{"children": [{"children": [{}]}, {}]}"#, as: node)
        let again = try MessageValue(decoding: try value.encoded(as: node), as: node)
        #expect(try again.jsonText(as: node) == #"{"children":[{"children":[{"children":[]}]},{"children":[]}]}"#)
    }

    @Test func aDescription_namingAMessageItLacks_isRefused() throws {
        var description = ServiceDescription.of(Clinics.self)
        let holder = try #require(description.messages.first { $0.fields.contains { $0.type.hasPrefix("message ") } })
        let held = holder.fields.first { $0.type.hasPrefix("message ") }!.type.dropFirst("message ".count)
        description.messages.removeAll { $0.name == held }
        #expect(throws: SchemaCatalogError.self) { try ServiceDescription.catalog(of: description) }
    }

    @Test func aDefault_thatIsNotOfItsFieldsType_isRefused() {
        var description = ServiceDescription.of(Clinics.self)
        let message = description.messages.firstIndex { $0.fields.contains { $0.presence == .defaulted } }!
        let field = description.messages[message].fields.firstIndex { $0.presence == .defaulted }!
        description.messages[message].fields[field].defaultValue = "{}"
        #expect(throws: SchemaCatalogError.self) { try ServiceDescription.catalog(of: description) }
    }

    /// A peer's description is input: a bound no contract could declare is refused, never a trap.
    @Test(arguments: [("int", UInt64(10)), ("string", 0), ("string", UInt64(UInt32.max) + 1)])
    func aBound_thatNoContractCouldDeclare_isRefused(type: String, maxBytes: UInt64) {
        var description = ServiceDescription.of(Clinics.self)
        let message = description.messages.firstIndex { $0.name == "clinics.SearchInput" }!
        let field = description.messages[message].fields.firstIndex { $0.type == type }!
        description.messages[message].fields[field].maxBytes = maxBytes
        #expect(throws: SchemaCatalogError.self) { try ServiceDescription.catalog(of: description) }
    }

    @Test func theBounds_surviveDescribe() throws {
        let catalog = try ServiceDescription.catalog(of: ServiceDescription.of(Identity.self))
        #expect(catalog.message(named: "identity.LoginInput")?.field(named: "password")?.maxBytes == 1024)
        #expect(catalog.message(named: "identity.Account")?.field(named: "email")?.maxBytes == nil)
    }
}
