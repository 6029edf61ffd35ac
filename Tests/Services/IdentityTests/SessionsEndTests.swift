import GRDB
import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
@testable import IdentityService

/// A user ends all of their sessions (`identity.logoutEverywhere`), or changes their password
/// (`identity.changePassword`, the current one and a new one), which ends them too.
@Suite("identity.logoutEverywhere and identity.changePassword")
struct SessionsEndTests {
    /// ada and grace, each logged in; ada twice.
    struct Given {
        let world: World
        let router: Router
        let ada: [Identity.Session]
        let grace: Identity.Session

        init() async throws {
            world = try World.fixture()
            router = Endpoint.routes(world: world)
            _ = try await router.call(Identity.register, .fixture())
            _ = try await router.call(Identity.register, .fixture(email: "grace@example.org", displayName: "Grace"))
            ada = [
                try await router.call(Identity.login, .fixture()), try await router.call(Identity.login, .fixture()),
            ]
            grace = try await router.call(Identity.login, .fixture(email: "grace@example.org"))
        }

        func works(_ session: Identity.Session) async -> Bool {
            (try? await router.call(Identity.authenticate, .init(token: session.token))) != nil
        }
    }

    @Test func logoutEverywhere_endsEverySessionOfTheUser_andNobodyElses() async throws {
        let given = try await Given()

        let ended = try await given.router.call(Identity.logoutEverywhere, .init(token: given.ada[0].token))

        #expect(ended.count == 2)
        for session in given.ada { #expect(await !given.works(session)) }
        #expect(await given.works(given.grace))
        let again = await serviceError {
            try await given.router.call(Identity.logoutEverywhere, .init(token: given.ada[1].token))
        }
        #expect(again?.code == .unauthenticated)
    }

    @Test func changePassword_setsTheNewOne_andEndsEverySession() async throws {
        let given = try await Given()

        let ended = try await given.router.call(
            Identity.changePassword,
            .init(
                token: given.ada[0].token, oldPassword: "correct horse battery staple", newPassword: "a new passphrase")
        )

        #expect(ended.count == 2)
        for session in given.ada { #expect(await !given.works(session)) }
        #expect(await given.works(given.grace))
        let old = await serviceError { try await given.router.call(Identity.login, .fixture()) }
        #expect(old?.code == .unauthenticated)
        _ = try await given.router.call(Identity.login, .fixture(password: "a new passphrase"))
    }

    @Test func changePassword_withAWrongCurrentPassword_changesNothing_andCountsAsAFailedLogin() async throws {
        let given = try await Given()
        let change = Identity.PasswordChangeInput(
            token: given.ada[0].token, oldPassword: "not my password", newPassword: "a new passphrase")

        let wrong = await serviceError { try await given.router.call(Identity.changePassword, change) }

        #expect(wrong?.code == .unauthenticated)
        #expect(wrong?.detail("field") == "oldPassword")
        #expect(await given.works(given.ada[0]))
        for _ in 0..<4 { _ = await serviceError { try await given.router.call(Identity.changePassword, change) } }
        let limited = await serviceError { try await given.router.call(Identity.changePassword, change) }
        #expect(limited?.code == .resourceExhausted, "the sixth guess at ada's password")
    }

    @Test func changePassword_refusesANewPasswordRegistrationWould_andABadToken() async throws {
        let given = try await Given()

        let short = await serviceError {
            try await given.router.call(
                Identity.changePassword,
                .init(token: given.ada[0].token, oldPassword: "correct horse battery staple", newPassword: "short"))
        }
        let stranger = await serviceError {
            try await given.router.call(
                Identity.changePassword,
                .init(
                    token: "not a token", oldPassword: "correct horse battery staple", newPassword: "a new passphrase"))
        }

        #expect(short?.code == .invalidInput && short?.detail("field") == "newPassword")
        #expect(stranger?.code == .unauthenticated)
        #expect(await given.works(given.ada[0]))
    }

    @Test func theContract_marksEveryPasswordSecret_andNothingElse() {
        let secrets = [
            Identity.RegisterInput.schema, Identity.FirstAdminInput.schema, Identity.LoginInput.schema,
            Identity.PasswordChangeInput.schema,
        ]
        .flatMap { schema in schema.fields.filter(\.secret).map { "\(schema.name).\($0.name)" } }
        #expect(
            secrets == [
                "identity.RegisterInput.password", "identity.FirstAdminInput.password", "identity.LoginInput.password",
                "identity.PasswordChangeInput.oldPassword", "identity.PasswordChangeInput.newPassword",
            ])
        #expect(Identity.TokenInput.schema.fields.filter(\.secret).isEmpty)
    }
}
