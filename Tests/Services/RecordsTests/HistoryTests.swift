import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import RecordsService

@Suite("Reading one's history")
struct HistoryTests {
    @Test func history_showsOnlyTheCallersEntries_newestFirst() async throws {
        let world = try World.fixture()
        let first = try await AddEntry(world: world).execute(.fixture(token: Tokens.ada, text: "first"))
        _ = try await AddEntry(world: world).execute(.fixture(token: Tokens.bob, text: "Bob's secret"))
        let second = try await AddEntry(world: world).execute(.fixture(token: Tokens.ada, text: "second"))

        let ada = try await ReadHistory(world: world).execute(.init(token: Tokens.ada))
        let bob = try await ReadHistory(world: world).execute(.init(token: Tokens.bob))

        #expect(ada.entries.map(\.id) == [second.id, first.id])
        #expect(ada.entries.allSatisfy { $0.userID == "u_ada" })
        #expect(bob.entries.map(\.text) == ["Bob's secret"])
    }

    @Test func history_ordersByCreationTime_beforeInsertionOrder() async throws {
        let world = try World.fixture()
        let older = Records.Entry(
            id: "r_old", userID: "u_ada", kind: .note, text: "old", createdAt: .init(secondsSinceEpoch: 10))
        let newer = Records.Entry(
            id: "r_new", userID: "u_ada", kind: .note, text: "new", createdAt: .init(secondsSinceEpoch: 20))
        try await world.entries.insert(newer)
        try await world.entries.insert(older)

        let history = try await ReadHistory(world: world).execute(.init(token: Tokens.ada))

        #expect(history.entries.map(\.id) == ["r_new", "r_old"])
    }

    @Test func history_ofOneKind_listsOnlyThatKind() async throws {
        let world = try World.fixture()
        for kind in [Records.EntryKind.allergy, .note, .allergy, .medication] {
            _ = try await AddEntry(world: world).execute(.fixture(kind: kind))
        }

        let allergies = try await ReadHistory(world: world).execute(.init(token: Tokens.ada, kind: .allergy))

        #expect(allergies.entries.count == 2)
        #expect(allergies.entries.allSatisfy { $0.kind == .allergy })
    }

    @Test func history_namesEveryClinic_withOneGetManyCall() async throws {
        let caller = StubCaller().identity().clinics()
        let world = try World.fixture(caller: caller)
        for clinicID in [Directory.hillStreet.id, Directory.deansgate.id, Directory.hillStreet.id, nil] {
            _ = try await AddEntry(world: world).execute(.fixture(clinicID: clinicID))
        }
        let before = caller.calls.count

        let history = try await ReadHistory(world: world).execute(.init(token: Tokens.ada))

        #expect(history.clinicNamesResolved)
        #expect(
            history.entries.map(\.clinicName) == [
                nil, "Hill Street Surgery", "Deansgate Pharmacy", "Hill Street Surgery",
            ])
        #expect(Array(caller.calls.dropFirst(before)) == ["identity.authenticate", "clinics.getMany"])
    }

    @Test(arguments: [ErrorCode.unavailable, .deadlineExceeded, .unimplemented])
    func history_whenClinicsCannotAnswer_isStillServed_withNamesUnresolved(code: ErrorCode) async throws {
        let world = try World.fixture()
        _ = try await AddEntry(world: world).execute(.fixture(text: "with clinic", clinicID: Directory.hillStreet.id))
        _ = try await AddEntry(world: world).execute(.fixture(text: "without"))
        var down = world
        down.caller = StubCaller().identity().clinicsDown(code)

        let history = try await ReadHistory(world: down).execute(.init(token: Tokens.ada))

        #expect(!history.clinicNamesResolved)
        #expect(history.entries.map(\.text) == ["without", "with clinic"])
        #expect(history.entries[1].clinicID == Directory.hillStreet.id)
        #expect(history.entries.allSatisfy { $0.clinicName == nil })
    }

    @Test func history_withoutClinics_doesNotAskClinics_andCountsAsResolved() async throws {
        let caller = StubCaller().identity()
        let world = try World.fixture(caller: caller)
        _ = try await AddEntry(world: world).execute(.fixture())

        let history = try await ReadHistory(world: world).execute(.init(token: Tokens.ada))

        #expect(history.clinicNamesResolved)
        #expect(!caller.calls.contains { $0.hasPrefix("clinics.") })
    }

    @Test func history_ofAClinicThatNoLongerExists_leavesItsNameOut() async throws {
        let world = try World.fixture()
        try await world.entries.insert(
            .init(
                id: "r_1", userID: "u_ada", kind: .note, text: "old clinic", clinicID: "c_closed", createdAt: .epoch))

        let history = try await ReadHistory(world: world).execute(.init(token: Tokens.ada))

        #expect(history.clinicNamesResolved)
        #expect(history.entries.first?.clinicName == nil)
    }

    @Test func history_ofNobody_isEmpty() async throws {
        let world = try World.fixture()
        let history = try await ReadHistory(world: world).execute(.init(token: Tokens.bob))
        #expect(history == Records.History(entries: [], clinicNamesResolved: true))
    }

    @Test func history_withAnUnknownKind_failsWithInvalidInput() async throws {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await ReadHistory(world: world).execute(.init(token: Tokens.ada, kind: .unknown("x")))
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "kind")
    }

    @Test func history_withAnInvalidToken_isUnauthenticated() async throws {
        let world = try World.fixture()
        let error = await wireError { _ = try await ReadHistory(world: world).execute(.init(token: Tokens.unknown)) }
        #expect(error?.code == .unauthenticated)
    }
}
