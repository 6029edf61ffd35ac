import Testing
@testable import VerticalsWire

/// One representation of a message's shape: a field names its message by a reference, which a
/// compiled type or a ``SchemaCatalog`` resolves, and the generic codec reads either alike.
@Suite("Schema references and catalogs")
struct SchemaCatalogTests {
    /// `test.Sample` and `test.Inner` as a client rebuilding them by name would write them.
    static func byName() throws -> SchemaCatalog {
        let sample = MessageSchema(
            Sample.schema.name,
            Sample.schema.fields.map { field in
                guard case .message(let reference) = field.type else { return field }
                return FieldDescriptor(
                    tag: field.tag, name: field.name, type: .message(named: reference.name), presence: field.presence,
                    doc: field.doc)
            }, doc: Sample.schema.doc)
        return try SchemaCatalog(messages: [sample, Inner.schema], enumerations: [Colour.schema])
    }

    @Test func aCompiledReference_andOneByName_areEqual_andNameTheSameMessage() {
        #expect(FieldType.message(Inner.self) == .message(named: "test.Inner"))
        #expect(FieldType.message(Inner.self) != .message(named: "test.Outer"))
        #expect(FieldType.message(Inner.self).description == "message test.Inner")
    }

    @Test func aCompiledMessage_mayHoldItself() {
        guard case .message(let reference) = Node.schema.fields[0].type else {
            Issue.record("children is not a message")
            return
        }
        #expect(reference.schema == Node.schema)
    }

    @Test func aWalk_listsEachMessageAndEnumeration_once_inTheOrderFirstMet() {
        let catalog = SchemaCatalog(reachableFrom: [Sample.schema, Node.schema, Inner.schema])
        #expect(catalog.messages.map(\.name) == ["test.Sample", "test.Inner", "test.Node"])
        #expect(catalog.enumerations == [Colour.schema])
    }

    @Test func schemasByName_equalTheCompiledOnes_andTheCodecReadsThemAlike() throws {
        let described = try #require(try Self.byName().message(named: "test.Sample"))
        #expect(described == Sample.schema)
        let body = Sample().encodedBody()
        let value = try MessageValue(decoding: body, as: described, strict: true)
        #expect(value == (try MessageValue(decoding: body, as: Sample.schema, strict: true)))
        #expect(try value.encoded(as: described) == body)
        #expect(try value.jsonText(as: described) == (try Sample().jsonString()))
    }

    @Test func aRecursiveCatalog_makesNoReferenceCycle() throws {
        weak var table: SchemaCatalog.Table?
        do {
            let catalog = try SchemaCatalog(
                messages: [MessageSchema("test.Node", [.repeated(1, "children", .message(named: "test.Node"))])],
                enumerations: [])
            table = catalog.table
            let node = try #require(catalog.message(named: "test.Node"))
            let body = Node(children: [Node(children: [Node()])]).encodedBody()
            #expect(try MessageValue(decoding: body, as: node).encoded(as: node) == body)
        }
        #expect(table == nil)
    }

    @Test func aNameTheCatalogLacks_isRefused_namingTheField() {
        #expect(
            throws: SchemaCatalogError(
                .notListed, "test.Outer.inner holds message test.Inner, which is not in the catalog")
        ) {
            try SchemaCatalog(
                messages: [MessageSchema("test.Outer", [.optional(1, "inner", .message(named: "test.Inner"))])],
                enumerations: [])
        }
        #expect(throws: SchemaCatalogError.self) {
            try SchemaCatalog(messages: [Inner.schema, Inner.schema], enumerations: [])
        }
        #expect(throws: SchemaCatalogError.self) {
            try SchemaCatalog(messages: [Sample.schema, Inner.schema], enumerations: []) // no test.Colour
        }
    }
}
