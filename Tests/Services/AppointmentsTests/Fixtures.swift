import GRDB
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
        caller: StubCaller = StubCaller(), clock: TestClock = TestClock(at: testNow), settings: Settings = .test,
        background: BackgroundWork = BackgroundWork(loop: nil)
    ) throws -> World {
        World(
            parts: try .test(
                migrator: Migrations.all, clock: clock, newID: SequentialIDs(prefix: "a_").next, caller: caller,
                calls: World.calls, label: "appointments-test"),
            settings: settings, background: background)
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

/// Records what notifications was asked to send; can be switched off to play "down", or held
/// (``hold``) to play "slow": each send then waits until the test opens the gate.
final class NotificationsFake: Sendable {
    let sent = Mutex<[Notifications.SendInput]>([])
    let down = Atomic<Bool>(false)
    let hold = Gate()

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
            .identity(
                sessions: patients.mapValues { user in
                    .fixture(userID: user, displayName: user, expiresAt: testNow.adding(.seconds(86_400)))
                }
            )
            .on(Clinics.checkSlot) { input throws(ServiceError) in
                guard input.clinicID == "c1" else { throw ServiceError(.notFound, "no clinic \(input.clinicID)") }
                return slot(input)
            }
            .on(Notifications.send) { input throws(ServiceError) in
                await notifications.hold.pass()
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

/// A gate a task waits at while it is closed; open (and passable at once) until ``close()``.
/// Counts who arrived, so a test can wait for the fact "a send is under way".
final class Gate: Sendable {
    private struct State {
        var closed = false
        var arrived = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var watching: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    /// How many tasks reached the gate so far.
    var arrived: Int { state.withLock { $0.arrived } }

    /// Makes the next arrivals wait.
    func close() { state.withLock { $0.closed = true } }

    /// Lets every waiting and later arrival through.
    func open() {
        let waiting = state.withLock { state in
            state.closed = false
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for task in waiting { task.resume() }
    }

    /// Returns once `count` tasks have reached the gate (the fact "a send is under way").
    func arrivals(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                if state.arrived >= count { return true }
                state.watching.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Returns at once while open; otherwise when the gate opens.
    func pass() async {
        await withCheckedContinuation { continuation in
            let (through, reached) = state.withLock { state in
                state.arrived += 1
                if state.closed { state.waiting.append(continuation) }
                let arrived = state.arrived
                let reached = state.watching.filter { $0.count <= arrived }.map(\.continuation)
                state.watching.removeAll { $0.count <= arrived }
                return (!state.closed, reached)
            }
            for watcher in reached { watcher.resume() }
            if through { continuation.resume() }
        }
    }
}

/// Counts the store's commits that wrote something (a GRDB transaction observer): "one durable
/// commit" is a number a test can check.
final class WriteCommits: TransactionObserver, Sendable {
    private let changed = Atomic<Bool>(false)
    private let count = Atomic<Int>(0)

    /// The commits that wrote, since it was added.
    var total: Int { count.load(ordering: .relaxed) }

    /// Starts counting `database`'s commits.
    static func counting(_ database: any DatabaseWriter) -> WriteCommits {
        let observer = WriteCommits()
        database.add(transactionObserver: observer, extent: .observerLifetime)
        return observer
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) { changed.store(true, ordering: .relaxed) }
    func databaseDidCommit(_ db: Database) {
        if changed.exchange(false, ordering: .relaxed) { count.add(1, ordering: .relaxed) }
    }
    func databaseDidRollback(_ db: Database) { changed.store(false, ordering: .relaxed) }
}
