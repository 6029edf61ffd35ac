import Testing
import VerticalsWire

@Suite("SchemaConformance")
struct SchemaConformanceTests {
    static let serviceErrors: [ServiceError] = [
        ServiceError(.invalidInput, "limit must be 1...100", details: [.init("field", "limit"), .init("max", "100")]),
        ServiceError(.unavailable, ""),
        ServiceError(.internal, "boom", retryable: true),
        ServiceError(.unknown("quotaExceeded"), "from a newer peer"),
    ]

    @Test("ServiceError conforms to wire.Error", arguments: serviceErrors)
    func serviceError_conformsToItsSchema(error: ServiceError) {
        #expect(SchemaConformance.check(error) == [])
    }

    @Test("the test messages conform", arguments: BodyCodecTests.samples)
    func sample_conformsToItsSchema(sample: Sample) {
        #expect(SchemaConformance.check(sample) == [])
    }

    @Test func emptyAndErrorDetail_conform() {
        #expect(SchemaConformance.check(Empty()) == [])
        #expect(SchemaConformance.check(ErrorDetail("k", "v")) == [])
    }

    // MARK: Each kind of disagreement is found and named

    @Test func check_findsSwappedTags() {
        let findings = SchemaConformance.check(Broken.SwappedTags(primary: "ada", secondary: "pw"))
        #expect(
            findings.map(\.description).contains {
                $0.hasPrefix("test.SwappedTags.primary: the Swift property is ada")
            }, "\(findings)")
    }

    @Test func check_findsFieldsWrittenOutOfOrder() {
        let findings = SchemaConformance.check(Broken.OutOfOrder(a: "a", b: "b"))
        #expect(findings.count == 1)
        #expect(
            findings.first?.description
                == "test.OutOfOrder: the direct encoder writes `b` (tag 2) where the schema's order puts `a` (tag 1): write fields in schema order"
        )
    }

    @Test func check_findsAnOmittedDefault() {
        let findings = SchemaConformance.check(Broken.OmitsDefault(limit: 20))
        #expect(
            findings.map(\.description)
                == [
                    "test.OmitsDefault.limit: the direct encoder leaves it out, but the schema always writes it (default 20)"
                ])
        #expect(SchemaConformance.check(Broken.OmitsDefault(limit: 3)) == [], "not visible when the value differs")
    }

    @Test func check_findsATagTheSchemaLacks() {
        let findings = SchemaConformance.check(Broken.ExtraTag(name: "x"))
        #expect(findings.first?.field == "#9")
        #expect(findings.first?.problem.contains("tag 9 is not a field of test.ExtraTag") == true)
    }

    @Test func check_findsAWrongWireType() {
        let findings = SchemaConformance.check(Broken.WrongWireType(value: 1.5))
        #expect(
            findings.map(\.description).contains(
                "test.WrongWireType.value: the schema does not describe the direct encoder's bytes: expected varint, found fixed64"
            ), "\(findings)")
    }

    @Test func check_findsAnIntWrittenUnderAUIntSchema() {
        let findings = SchemaConformance.check(Broken.SignMixup(count: 5))
        #expect(
            findings.map(\.description) == [
                "test.SignMixup.count: the Swift property is 5, but the schema reads uint(10)"
            ])
    }

    @Test func check_findsAPropertyNamedOtherwiseThanItsField() {
        let findings = SchemaConformance.check(Broken.Renamed(title: "x"))
        #expect(findings.first?.description.contains("has no stored property named `name`") == true)
    }

    @Test func check_findsADirectDecoderThatDropsAField() {
        let findings = SchemaConformance.check(Broken.ForgetfulDecoder(name: "x", note: "kept?"))
        #expect(findings.contains { $0.problem.contains("the direct decoder reads") }, "\(findings)")
    }

    @Test func checkSchema_findsADefaultOfTheWrongType() {
        let schema = MessageSchema(
            "test.BadDefaults",
            [
                .defaulted(1, "limit", .uint, .int(20)),
                .defaulted(2, "colour", .enumeration(Colour.schema), .enumeration("purple")),
            ])
        #expect(
            SchemaConformance.check(schema: schema).map(\.description) == [
                "test.BadDefaults.limit: the default 20 is not a value of type uint",
                #"test.BadDefaults.colour: the default "purple" is not a case of test.Colour (["red", "green", "blue"])"#,
            ])
    }
}
