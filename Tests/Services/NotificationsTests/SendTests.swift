import IOInterface
import Testing
import VerticalsContract
import VerticalsStorage
import VerticalsTesting
import VerticalsWire
@testable import NotificationsService

@Suite("notifications.send")
struct SendTests {
    @Test func send_toAnExistingUser_storesAnUnreadNotification() async throws {
        let given = try Given()

        let sent = try await given.router.call(Notifications.send, .fixture())

        #expect(sent.userID == "u-ada")
        #expect(sent.title == "Appointment booked")
        #expect(sent.createdAt == testNow)
        #expect(sent.readAt == nil)
        #expect(sent.deduplicationKey == "appointments.booked:a_1")
        #expect(try await given.storedCount() == 1)
    }

    @Test func send_withARepeatedKey_returnsTheFirstNotificationAndStoresNoOther() async throws {
        let given = try Given()
        let first = try await given.router.call(Notifications.send, .fixture())
        given.clock.advance(.seconds(60))

        let again = try await given.router.call(Notifications.send, .fixture(title: "Appointment booked (retry)"))

        #expect(again == first)
        #expect(try await given.storedCount() == 1)
    }

    @Test func send_withoutAKey_storesEachSend() async throws {
        let given = try Given()

        let first = try await given.router.call(Notifications.send, .fixture(deduplicationKey: nil))
        let second = try await given.router.call(Notifications.send, .fixture(deduplicationKey: nil))

        #expect(first.id != second.id)
        #expect(try await given.storedCount() == 2)
    }

    @Test func send_withARepeatedKey_whileIdentityIsDown_stillReturnsTheFirst() async throws {
        let given = try Given()
        let first = try await given.router.call(Notifications.send, .fixture())
        given.identity.failure.withLock { $0 = .unavailable }

        let again = try await given.router.call(Notifications.send, .fixture())

        #expect(again == first)
    }

    @Test func send_toARecipientIdentityConfirmedBefore_doesNotAskAgain() async throws {
        let given = try Given()
        _ = try await given.router.call(Notifications.send, .fixture(deduplicationKey: "first"))
        given.identity.failure.withLock { $0 = .unavailable }

        let second = try await given.router.call(Notifications.send, .fixture(deduplicationKey: "second"))

        #expect(second.deduplicationKey == "second")
        #expect(try await given.storedCount() == 2)
        // Only confirmations are kept: an unknown user is still asked about (and here, refused).
        let unknown = await serviceError { try await given.router.call(Notifications.send, .fixture(userID: "u-bob")) }
        #expect(unknown?.code == .unavailable)
    }

    @Test func send_withAKeyUsedForAnotherUser_failsWithConflict() async throws {
        let given = try Given()
        _ = try await given.router.call(Notifications.send, .fixture(userID: "u-ada"))

        let error = await serviceError { try await given.router.call(Notifications.send, .fixture(userID: "u-bob")) }

        #expect(error?.code == .conflict)
        #expect(error?.detail("field") == "deduplicationKey")
        #expect(try await given.storedCount() == 1)
    }

    @Test func send_toAKnownRecipient_withAKeyUsedForAnotherUser_failsWithConflict() async throws {
        let given = try Given()
        _ = try await given.router.call(Notifications.send, .fixture(userID: "u-bob", deduplicationKey: "bob's"))
        _ = try await given.router.call(Notifications.send, .fixture(userID: "u-ada", deduplicationKey: "ada's"))

        let error = await serviceError {
            try await given.router.call(Notifications.send, .fixture(userID: "u-ada", deduplicationKey: "bob's"))
        }

        #expect(error?.code == .conflict)
        #expect(try await given.storedCount() == 2)
    }

    @Test func send_toAnUnknownUser_failsWithNotFoundAndStoresNothing() async throws {
        let given = try Given()

        let error = await serviceError { try await given.router.call(Notifications.send, .fixture(userID: "u-nobody")) }

        #expect(error?.code == .notFound)
        #expect(error?.detail("field") == "userID")
        #expect(try await given.storedCount() == 0)
    }

    @Test(
        "when identity cannot answer, send says so and stores nothing",
        arguments: [ErrorCode.unavailable, .deadlineExceeded])
    func send_whenIdentityCannotAnswer_failsAndStoresNothing(code: ErrorCode) async throws {
        let given = try Given()
        given.identity.failure.withLock { $0 = code }

        let error = await serviceError { try await given.router.call(Notifications.send, .fixture()) }

        #expect(error?.code == code)
        #expect(error?.retryable == true)
        #expect(try await given.storedCount() == 0)
        given.identity.failure.withLock { $0 = nil }
        _ = try await given.router.call(Notifications.send, .fixture())
        #expect(try await given.storedCount() == 1, "the retry delivers")
    }

    /// Each field that breaks its rule, and the field named.
    static let invalidFields: [(Notifications.SendInput, String)] = [
        (.fixture(userID: ""), "userID"),
        (.fixture(title: ""), "title"),
        (.fixture(title: " \n\t"), "title"),
        (.fixture(title: String(repeating: "t", count: 201)), "title"),
        (.fixture(body: ""), "body"),
        (.fixture(body: String(repeating: "b", count: 4001)), "body"),
        (.fixture(deduplicationKey: ""), "deduplicationKey"),
        (.fixture(deduplicationKey: String(repeating: "k", count: 201)), "deduplicationKey"),
    ]

    @Test(
        "send refuses a field that breaks its rule, without asking identity",
        arguments: invalidFields + heavyFields)
    func send_givenAnInvalidField_failsWithInvalidInputNamingIt(input: Notifications.SendInput, field: String)
        async throws
    {
        let given = try Given()

        let error = await serviceError { try await given.router.call(Notifications.send, input) }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == field)
        #expect(try await given.storedCount() == 0)
    }

    /// One character each: "a" and 100,000 combining accents, 200,001 bytes.
    static let heavyFields: [(Notifications.SendInput, String)] = [
        (.fixture(title: heavy), "title"), (.fixture(body: heavy), "body"),
        (.fixture(deduplicationKey: heavy), "deduplicationKey"),
    ]
    static let heavy = "a" + String(repeating: "\u{301}", count: 100_000)

    @Test func send_refusesAHeavyCharacterByItsBytes_evenInProcess() async throws {
        let given = try Given()
        let heavy = String(repeating: "b", count: 10) + String(repeating: "\u{301}", count: 20_000)
        #expect(heavy.count == 10)

        let error = await #expect(throws: NotificationsFailure.self) {
            try await SendNotification(world: given.world).execute(
                userID: "u-ada", title: "Hello", body: heavy, deduplicationKey: nil)
        }

        guard case .invalid(let field, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(field == "body")
        #expect(Notifications.SendInput.schema.field(named: "body")?.maxBytes == Limits.bodyBytes)
        #expect(Notifications.SendInput.schema.field(named: "title")?.maxBytes == Limits.titleBytes)
    }

    @Test func send_acceptsTheLongestTitleAndBody() async throws {
        let given = try Given()

        let sent = try await given.router.call(
            Notifications.send,
            .fixture(title: String(repeating: "ü", count: 200), body: String(repeating: "b", count: 4000)))

        #expect(sent.title.count == 200 && sent.body.count == 4000)
    }
}
