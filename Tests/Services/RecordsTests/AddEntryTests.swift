import IOInterface
import SessionsTesting
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import RecordsService

@Suite("Adding an entry")
struct AddEntryTests {
    @Test func addEntry_withoutAClinic_storesItForTheCaller_withoutAskingClinics() async throws {
        let caller = StubCaller().identity().clinics()
        let world = try World.fixture(caller: caller)

        let entry = try await AddEntry(world: world).execute(.fixture(kind: .allergy, text: "Penicillin: hives."))

        #expect(
            entry
                == Records.Entry(
                    id: "r_t1", userID: "u_ada", kind: .allergy, text: "Penicillin: hives.", createdAt: world.now()))
        #expect(caller.calls == ["identity.authenticate"])
        #expect(try await world.entries.entries(userID: "u_ada", kind: nil) == [entry])
    }

    @Test func addEntry_withAKnownClinic_checksItWithClinics_andNamesIt() async throws {
        let caller = StubCaller().identity().clinics()
        let world = try World.fixture(caller: caller)

        let entry = try await AddEntry(world: world).execute(.fixture(clinicID: Directory.hillStreet.id))

        #expect(entry.clinicID == Directory.hillStreet.id)
        #expect(entry.clinicName == "Hill Street Surgery")
        #expect(caller.calls == ["identity.authenticate", "clinics.get"])
    }

    @Test func addEntry_withAnUnknownClinic_failsWithInvalidInputNamingClinicID_andStoresNothing() async throws {
        let world = try World.fixture()

        let error = await wireError { _ = try await AddEntry(world: world).execute(.fixture(clinicID: "c_nope")) }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "clinicID")
        #expect(try await world.entries.entries(userID: "u_ada", kind: nil).isEmpty)
    }

    @Test(arguments: [ErrorCode.unavailable, .deadlineExceeded])
    func addEntry_whenClinicsCannotAnswer_passesItsErrorThrough_andStoresNothing(code: ErrorCode) async throws {
        let world = try World.fixture(caller: StubCaller().identity().clinicsDown(code))

        let error = await wireError { _ = try await AddEntry(world: world).execute(.fixture(clinicID: "c_0001")) }

        #expect(error?.code == code)
        #expect(try await world.entries.entries(userID: "u_ada", kind: nil).isEmpty)
    }

    @Test func addEntry_whenIdentityIsDown_failsUnavailable_andStoresNothing() async throws {
        let world = try World.fixture(caller: StubCaller().identityDown())

        let error = await wireError { _ = try await AddEntry(world: world).execute(.fixture()) }

        #expect(error?.code == .unavailable)
        #expect(try await world.entries.entries(userID: "u_ada", kind: nil).isEmpty)
    }

    @Test func addEntry_withAnInvalidToken_isUnauthenticated() async throws {
        let world = try World.fixture()

        let error = await wireError { _ = try await AddEntry(world: world).execute(.fixture(token: Tokens.unknown)) }

        #expect(error?.code == .unauthenticated)
    }

    @Test func addEntry_withNoToken_isUnauthenticated_withoutAskingIdentity() async throws {
        let caller = StubCaller()
        let world = try World.fixture(caller: caller)

        let error = await wireError { _ = try await AddEntry(world: world).execute(.fixture(token: "")) }

        #expect(error?.code == .unauthenticated)
        #expect(caller.calls.isEmpty)
    }

    static let invalidInputs: [(Records.AddEntryInput, String)] = [
        (.fixture(text: ""), "text"),
        (.fixture(text: " \n\t "), "text"),
        (.fixture(text: String(repeating: "a", count: 10_001)), "text"),
        // One character: "a" and 100,000 combining accents, 200,001 bytes.
        (.fixture(text: "a" + String(repeating: "\u{301}", count: 100_000)), "text"),
        (.fixture(kind: .unknown("immunisation")), "kind"),
        (.fixture(clinicID: ""), "clinicID"),
    ]

    @Test(arguments: invalidInputs)
    func addEntry_breakingARule_failsWithInvalidInputNamingTheField(
        input: Records.AddEntryInput, field: String
    ) async throws {
        let world = try World.fixture()

        let error = await wireError { _ = try await AddEntry(world: world).execute(input) }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == field)
        #expect(try await world.entries.entries(userID: "u_ada", kind: nil).isEmpty)
    }

    @Test func theDomainsByteLimit_isTheContractsBound() {
        #expect(Records.AddEntryInput.schema.field(named: "text")?.maxBytes == EntryRules.maxTextBytes)
    }

    @Test(arguments: Records.EntryKind.knownCases)
    func addEntry_ofEachKind_andTheLongestText_isStored(kind: Records.EntryKind) async throws {
        let world = try World.fixture()
        let text = String(repeating: "é", count: EntryRules.maxTextLength)

        let entry = try await AddEntry(world: world).execute(.fixture(kind: kind, text: text))

        #expect(entry.kind == kind)
        #expect(try await world.entries.entries(userID: "u_ada", kind: kind).first?.text == text)
    }
}
