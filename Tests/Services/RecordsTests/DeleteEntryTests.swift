import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
@testable import RecordsService

@Suite("Deleting an entry")
struct DeleteEntryTests {
    @Test func deleteEntry_ofTheCallersOwn_removesIt() async throws {
        let world = try World.fixture()
        let entry = try await AddEntry(world: world).execute(.fixture())

        try await DeleteEntry(world: world).execute(.init(token: Tokens.ada, id: entry.id))

        #expect(try await ReadHistory(world: world).execute(.init(token: Tokens.ada)).entries.isEmpty)
    }

    @Test func deleteEntry_ofAnotherUsersEntry_failsWithPermissionDenied_andKeepsIt() async throws {
        let world = try World.fixture()
        let adas = try await AddEntry(world: world).execute(.fixture(token: Tokens.ada))

        let error = await wireError {
            try await DeleteEntry(world: world).execute(.init(token: Tokens.bob, id: adas.id))
        }

        #expect(error?.code == .permissionDenied)
        #expect(try await ReadHistory(world: world).execute(.init(token: Tokens.ada)).entries.map(\.id) == [adas.id])
    }

    @Test func deleteEntry_thatDoesNotExist_failsWithNotFound() async throws {
        let world = try World.fixture()

        let error = await wireError {
            try await DeleteEntry(world: world).execute(.init(token: Tokens.ada, id: "r_nope"))
        }

        #expect(error?.code == .notFound)
        #expect(error?.detail("id") == "r_nope")
    }

    @Test func deleteEntry_twice_failsWithNotFoundTheSecondTime() async throws {
        let world = try World.fixture()
        let entry = try await AddEntry(world: world).execute(.fixture())
        try await DeleteEntry(world: world).execute(.init(token: Tokens.ada, id: entry.id))

        let error = await wireError {
            try await DeleteEntry(world: world).execute(.init(token: Tokens.ada, id: entry.id))
        }

        #expect(error?.code == .notFound)
    }

    @Test func deleteEntry_withAnInvalidToken_isUnauthenticated_andKeepsTheEntry() async throws {
        let world = try World.fixture()
        let entry = try await AddEntry(world: world).execute(.fixture())

        let error = await wireError {
            try await DeleteEntry(world: world).execute(.init(token: Tokens.unknown, id: entry.id))
        }

        #expect(error?.code == .unauthenticated)
        #expect(try await world.entries.entries(userID: "u_ada", kind: nil).count == 1)
    }
}
