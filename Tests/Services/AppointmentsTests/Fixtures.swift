import IOInterface
import Logging
import SessionsTesting
import Synchronization
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsTesting
import VerticalsWire
@testable import AppointmentsService

/// A fixed "now": 2026-11-23T08:00:00Z, a Monday.
let testNow = Timestamp(secondsSinceEpoch: 1_795_420_800)

extension World {
    /// A world over an in-memory store, a test clock at ``testNow``, ids `a_1`, `a_2`, …, and
    /// `caller` (stubbing nothing by default: any call fails the test).
    static func test(
        caller: StubCaller = StubCaller(), clock: TestClock = TestClock(at: testNow), settings: Settings = .test
    ) throws -> World {
        World(
            parts: try .test(
                migrator: Migrations.all, clock: clock, newID: SequentialIDs(prefix: "a_").next, caller: caller,
                label: "appointments-test"),
            settings: settings, background: BackgroundWork(loop: nil))
    }
}

extension World.Settings {
    /// Capacity 1 and short timeouts.
    static var test: World.Settings {
        var settings = World.Settings()
        settings.slotCapacity = 1
        settings.notifyTimeout = .milliseconds(100)
        settings.firstRetryDelay = .milliseconds(10)
        settings.maxRetryDelay = .milliseconds(20)
        return settings
    }
}

extension Appointments.BookInput {
    static func fixture(
        token: String = "token-ada", clinicID: String = "c1", service: Clinics.Service = .gp,
        startsAt: Timestamp = testNow.adding(.seconds(3_600)), durationMinutes: Int = 20, reason: String = "cough",
        requestID: String = "r1"
    ) -> Self {
        .init(
            token: token, clinicID: clinicID, service: service, startsAt: startsAt, durationMinutes: durationMinutes,
            reason: reason, requestID: requestID)
    }
}

/// Who each test token belongs to.
let patients = ["token-ada": "u-ada", "token-bob": "u-bob"].merging(crowd) { first, _ in first }
/// Ten more patients (`token-p0`… → `u-p0`…), for concurrent bookings.
let crowd = (0..<10).map { ("token-p\($0)", "u-p\($0)") }

/// Records what notifications was asked to send; can be switched off to play "down".
final class NotificationsFake: Sendable {
    let sent = Mutex<[Notifications.SendInput]>([])
    let down = Atomic<Bool>(false)

    var keys: [String] { sent.withLock { $0.compactMap(\.deduplicationKey) } }
}

extension StubCaller {
    /// Identity knows the `patients`; clinics' `c1` offers gp and is open; notifications is `notifications`.
    static func suite(
        notifications: NotificationsFake = NotificationsFake(),
        slot: @escaping @Sendable (Clinics.CheckSlotInput) -> Clinics.SlotCheck = { input in
            .init(clinicID: input.clinicID, clinicName: "Camden Health", offersService: true, isOpen: true, reason: "")
        }
    ) -> StubCaller {
        StubCaller()
            .identity(sessions: patients.mapValues { user in
                .fixture(userID: user, displayName: user, expiresAt: testNow.adding(.seconds(86_400)))
            })
            .on(Clinics.checkSlot) { input throws(ServiceError) in
                guard input.clinicID == "c1" else { throw ServiceError(.notFound, "no clinic \(input.clinicID)") }
                return slot(input)
            }
            .on(Notifications.send) { input throws(ServiceError) in
                if notifications.down.load(ordering: .relaxed) {
                    throw ServiceError(.unavailable, "notifications is down")
                }
                notifications.sent.withLock { sent in
                    if !sent.contains(where: { $0.deduplicationKey == input.deduplicationKey }) { sent.append(input) }
                }
                return .init(
                    id: "n\(input.deduplicationKey ?? "")", userID: input.userID, title: input.title, body: input.body,
                    createdAt: testNow, readAt: nil, deduplicationKey: input.deduplicationKey)
            }
    }
}
