import GRDB
import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting
@testable import IdentityService

@Suite("identity.getUser")
struct GetUserTests {
    @Test func getUser_givenAnExistingUser_returnsOnlyThePublicProfile() async throws {
        let router = Endpoint.routes(world: try .fixture())
        let account = try await router.call(Identity.register, .fixture())

        let profile = try await router.call(Identity.getUser, .init(userID: account.userID))

        #expect(profile == Identity.UserProfile(userID: account.userID, displayName: "Ada Lovelace"))
    }

    @Test func getUser_givenAnUnknownID_failsWithNotFound() async throws {
        let router = Endpoint.routes(world: try .fixture())

        let error = await serviceError { try await router.call(Identity.getUser, .init(userID: "u-missing")) }

        #expect(error?.code == .notFound)
        #expect(error?.detail("field") == "userID")
    }
}
