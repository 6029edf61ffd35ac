import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsWire

/// The previous version's reader used by the forward check: the generic decoder over that
/// version's schemas, read back from its `describe`. It must refuse what an older peer would
/// refuse, naming the field.
@Suite("Reading today's bytes as an older version")
struct OlderReaderTests {
    static let bytes = Clinics.NearestInput(latitude: 51.5, longitude: -0.12, limit: 3).encodedBody()

    /// Expects `older` to refuse today's ``bytes``, naming the field at `path`.
    static func expectRefused(
        by older: MessageSchema, naming path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sourceLocation: sourceLocation) {
            try MessageValue(decoding: bytes, as: older)
        } throws: { error in
            (error as? WireDecodingError)?.fieldPath == path
        }
    }

    /// `clinics.NearestInput` as a version whose field `tag` differed by `edit`.
    static func olderInput(_ edit: (inout Daemon.FieldInfo) -> Void, tag: UInt64) throws -> MessageSchema {
        var description = ServiceDescription.of(Clinics.self)
        let message = description.messages.firstIndex { $0.name == "clinics.NearestInput" }!
        let field = description.messages[message].fields.firstIndex { $0.tag == tag }!
        edit(&description.messages[message].fields[field])
        return try #require(try ServiceDescription.catalog(of: description).message(named: "clinics.NearestInput"))
    }

    @Test func todaysDescription_readsTodaysBytes_asTheCompiledSchemaDoes() throws {
        let described = try #require(
            try ServiceDescription.catalog(of: ServiceDescription.of(Clinics.self)).message(
                named: "clinics.NearestInput"))
        let seen = try MessageValue(decoding: Self.bytes, as: described)
        let today = try MessageValue(decoding: Self.bytes, as: Clinics.NearestInput.schema)
        #expect(seen == today)
    }

    @Test func anOlderRequiredField_thatTodayLeavesOut_isNamed() throws {
        // The older version required `service`; today it is optional and absent here.
        Self.expectRefused(
            by: try Self.olderInput({ $0.presence = .required }, tag: 4), naming: "clinics.NearestInput.service")
    }

    @Test func anOlderTypeOfAnotherWireType_isNamed() throws {
        Self.expectRefused(
            by: try Self.olderInput({ $0.type = "double" }, tag: 3), naming: "clinics.NearestInput.limit")
    }

    @Test func anOlderTypeOfTheSameWireType_isCaughtByComparingValues() throws {
        // `limit` read as uint by the older version: the bytes parse, with another meaning.
        let older = try Self.olderInput({ $0.type = "uint" }, tag: 3)
        let seen = try MessageValue(decoding: Self.bytes, as: older)
        let today = try MessageValue(decoding: Self.bytes, as: Clinics.NearestInput.schema)
        let difference = ValueSubset.firstDifference(old: seen, new: today, schema: older, path: "clinics.NearestInput")
        #expect(difference?.hasPrefix("clinics.NearestInput.limit") == true, "\(difference ?? "none")")
    }

    @Test func anOlderDefaultedField_todayGone_isWhatTheOlderPeerSeesFromAnyWriter() throws {
        var description = ServiceDescription.of(Clinics.self)
        let message = description.messages.firstIndex { $0.name == "clinics.NearestInput" }!
        description.messages[message].fields.append(
            .init(tag: 99, name: "retired", type: "int", presence: .defaulted, defaultValue: "7"))
        let older = try #require(try ServiceDescription.catalog(of: description).message(named: "clinics.NearestInput"))
        let seen = try MessageValue(decoding: Self.bytes, as: older)
        let today = try MessageValue(decoding: Self.bytes, as: Clinics.NearestInput.schema)
        #expect(seen[99] == .int(7))
        #expect(ValueSubset.firstDifference(old: seen, new: today, schema: older, path: "clinics.NearestInput") == nil)
    }
}
