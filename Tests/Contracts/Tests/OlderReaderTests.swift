import ContractTesting
import IOInterface
import ServiceKit
import Testing

/// The previous version's reader used by the forward check: it must refuse what an older
/// peer would refuse, naming the field.
@Suite("Reading today's bytes as an older version")
struct DescribedDecoderTests {
    static let bytes = Clinics.NearestInput(latitude: 51.5, longitude: -0.12, limit: 3).encodedBody()

    static func olderClinics(_ edit: (inout Daemon.FieldInfo) -> Void, tag: UInt64) -> Daemon.Description {
        var description = ServiceDescription.of(Clinics.self)
        let message = description.messages.firstIndex { $0.name == "clinics.NearestInput" }!
        let field = description.messages[message].fields.firstIndex { $0.tag == tag }!
        edit(&description.messages[message].fields[field])
        return description
    }

    @Test func todaysDescription_readsTodaysBytes_asTheGenericCodecDoes() throws {
        let seen = try DescribedDecoder(ServiceDescription.of(Clinics.self)).decode(Self.bytes, as: "clinics.NearestInput")
        let today = try MessageValue(decoding: Self.bytes, as: Clinics.NearestInput.schema)
        #expect(ValueSubset.firstDifference(old: seen, new: today, path: "clinics.NearestInput") == nil)
    }

    @Test func anOlderRequiredField_thatTodayLeavesOut_isNamed() {
        // The older version required `service`; today it is optional and absent here.
        let older = Self.olderClinics({ $0.presence = .required }, tag: 4)
        do {
            _ = try DescribedDecoder(older).decode(Self.bytes, as: "clinics.NearestInput")
            Issue.record("an older reader that requires service accepted bytes without it")
        } catch {
            #expect(error.path == "clinics.NearestInput.service")
        }
    }

    @Test func anOlderTypeOfAnotherWireType_isNamed() {
        let older = Self.olderClinics({ $0.type = "double" }, tag: 3)
        do {
            _ = try DescribedDecoder(older).decode(Self.bytes, as: "clinics.NearestInput")
            Issue.record("an older reader of limit as a double accepted a varint")
        } catch {
            #expect(error.path == "clinics.NearestInput.limit")
        }
    }

    @Test func anOlderTypeOfTheSameWireType_isCaughtByComparingValues() throws {
        // `limit` read as uint by the older version: the bytes parse, with another meaning.
        let older = Self.olderClinics({ $0.type = "uint" }, tag: 3)
        let seen = try DescribedDecoder(older).decode(Self.bytes, as: "clinics.NearestInput")
        let today = try MessageValue(decoding: Self.bytes, as: Clinics.NearestInput.schema)
        let difference = ValueSubset.firstDifference(old: seen, new: today, path: "clinics.NearestInput")
        #expect(difference?.hasPrefix("clinics.NearestInput#3") == true, "\(difference ?? "none")")
    }
}
