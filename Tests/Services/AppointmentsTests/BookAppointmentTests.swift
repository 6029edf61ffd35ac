import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsTesting
import VerticalsWire
@testable import AppointmentsService

@Suite struct BookAppointmentTests {
    @Test func book_givenAnOpenSlot_storesTheBookingAndNotifiesThePatient() async throws {
        let notifications = NotificationsFake()
        let world = try World.test(caller: .suite(notifications: notifications))
        let booking = try await BookAppointment(world: world).execute(.fixture())
        #expect(booking.patientID == "u-ada")
        #expect(booking.clinicName == "Camden Health")
        #expect(booking.endsAt == testNow.adding(.seconds(3_600 + 20 * 60)))
        #expect(booking.appointment.notification == .queued)
        await world.outbox.flushed()
        #expect(notifications.keys == ["appointments.booked:\(booking.id)"])
        #expect(try await world.store.booking(id: booking.id)?.notified == true)
        let got = try await GetAppointment(world: world).execute(token: "token-ada", id: booking.id).appointment
        #expect(got.notified && got.notification == .sent)
    }

    @Test(.timeLimit(.minutes(5))) // a book that waited for notifications would hang here, held
    func book_answersAfterItsOneCommit_beforeNotificationsAnswers_thenTheOutboxDeliversOnce() async throws {
        let notifications = NotificationsFake()
        notifications.hold.close() // notifications is slow: every send waits for the test
        let world = try World.test(caller: .suite(notifications: notifications))
        let commits = WriteCommits.counting(world.store.database)

        let booking = try await BookAppointment(world: world).execute(.fixture())
        #expect(commits.total == 1, "the booking and its outbox message are one commit")
        #expect(booking.appointment.notification == .queued)
        #expect(notifications.keys.isEmpty)
        let stored = try #require(try await world.store.booking(id: booking.id))
        #expect(stored.status == .booked && !stored.notified)
        #expect(
            try await world.store.dueMessages(now: testNow).map(\.deduplicationKey) == [
                "appointments.booked:\(booking.id)"
            ])
        let before = try await GetAppointment(world: world).execute(token: "token-ada", id: booking.id).appointment
        #expect(before.notification == .queued && !before.notified)

        notifications.hold.open()
        await world.outbox.flushed()
        #expect(notifications.hold.arrived == 1, "sent once")
        #expect(notifications.keys == ["appointments.booked:\(booking.id)"])
        #expect(commits.total == 2, "its delivery is recorded in one more commit, after the answer")
        #expect(try await world.store.dueMessages(now: testNow.adding(.seconds(3_600))).isEmpty)
        let after = try await GetAppointment(world: world).execute(token: "token-ada", id: booking.id).appointment
        #expect(after.notification == .sent && after.notified)

        // A retry of the same request replays the booking, now saying `sent`, and sends nothing more.
        let replayed = try await BookAppointment(world: world).execute(.fixture())
        #expect(replayed.id == booking.id && replayed.appointment.notification == .sent)
        await world.outbox.flushed()
        #expect(notifications.hold.arrived == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func bookingsMadeWhileASendIsUnderWay_areSentTogether_andRecordedInOneCommit() async throws {
        let notifications = NotificationsFake()
        notifications.hold.close()
        var settings = World.Settings.test
        settings.slotCapacity = 3
        let world = try World.test(caller: .suite(notifications: notifications), settings: settings)
        let commits = WriteCommits.counting(world.store.database)
        var booked: [Booking] = []
        for (index, (token, _)) in crowd.prefix(3).enumerated() {
            booked.append(try await BookAppointment(world: world).execute(.fixture(token: token)))
            // The other two are booked while the first one's send is under way (held at the gate).
            if index == 0 { await notifications.hold.arrivals(1) }
        }
        #expect(commits.total == 3, "one commit per booking, none waiting for notifications")
        notifications.hold.open()
        await world.outbox.flushed()
        #expect(notifications.keys.sorted() == booked.map { "appointments.booked:\($0.id)" }.sorted())
        // The first send was under way while the other two were booked: they went as one batch.
        #expect(commits.total == 3 + 2)
        for booking in booked { #expect(try await world.store.booking(id: booking.id)?.notified == true) }
    }

    @Test(.timeLimit(.minutes(5)))
    func book_whileTheDaemonDrains_leavesTheMessageInTheOutbox_andTheNextStartDeliversItOnce() async throws {
        let notifications = NotificationsFake()
        let background = BackgroundWork(loop: nil)
        let world = try World.test(caller: .suite(notifications: notifications), background: background)
        await background.stop() // SIGTERM: requests still finish, background work no longer starts
        let booking = try await BookAppointment(world: world).execute(.fixture())
        #expect(booking.appointment.notification == .queued)
        await world.outbox.flushed()
        #expect(notifications.keys.isEmpty)
        #expect(
            try await world.store.dueMessages(now: testNow).map(\.deduplicationKey) == [
                "appointments.booked:\(booking.id)"
            ])

        // The next start, over the same store: its outbox retry delivers the message, once.
        let restarted = World(parts: world.parts, settings: .test, background: BackgroundWork(loop: nil))
        restarted.outbox.resume()
        let deadline = ContinuousClock.now + .seconds(30)
        while try await restarted.store.booking(id: booking.id)?.notified != true, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(notifications.keys == ["appointments.booked:\(booking.id)"])
        let got = try await GetAppointment(world: restarted).execute(token: "token-ada", id: booking.id).appointment
        #expect(got.notification == .sent)
    }

    @Test func book_retriedWithTheSameRequestID_returnsTheFirstBookingOnce() async throws {
        let world = try World.test(caller: .suite())
        let first = try await BookAppointment(world: world).execute(.fixture(requestID: "same"))
        let second = try await BookAppointment(world: world).execute(.fixture(requestID: "same"))
        #expect(second.id == first.id)
        let all = try await world.store.bookings(
            patientID: "u-ada", from: testNow, to: testNow.adding(.seconds(86_400)), includeCancelled: true)
        #expect(all.count == 1)
    }

    @Test func book_sameRequestIDForAnotherSlot_isAConflict() async throws {
        let world = try World.test(caller: .suite())
        _ = try await BookAppointment(world: world).execute(.fixture(requestID: "same"))
        await #expect(throws: BookingError.requestIDReused) {
            try await BookAppointment(world: world).execute(
                .fixture(startsAt: testNow.adding(.seconds(7_200)), requestID: "same"))
        }
    }

    @Test func book_overlappingTheSamePatientsBooking_isAConflict() async throws {
        let world = try World.test(caller: .suite())
        let first = try await BookAppointment(world: world).execute(.fixture(requestID: "r1"))
        await #expect(throws: BookingError.patientBusy(existingID: first.id)) {
            try await BookAppointment(world: world).execute(
                .fixture(service: .dentist, startsAt: testNow.adding(.seconds(3_600 + 600)), requestID: "r2"))
        }
    }

    @Test(
        "the longest booking overlaps what starts before its end, and nothing from its end on",
        arguments: [(239, true), (240, false)])
    func book_afterALongestBooking_overlapsUntilItsEnd(minutesLater: Int, overlaps: Bool) async throws {
        let world = try World.test(caller: .suite()) // capacity 1: the clinic's check sees it too
        let longest = try await BookAppointment(world: world).execute(
            .fixture(durationMinutes: Booking.durations.upperBound, requestID: "long"))
        let later = Appointments.BookInput.fixture(
            startsAt: longest.startsAt.adding(.seconds(minutesLater * 60)), durationMinutes: 5, requestID: "later")
        if overlaps {
            await #expect(throws: BookingError.patientBusy(existingID: longest.id)) {
                try await BookAppointment(world: world).execute(later)
            }
            await #expect(throws: BookingError.slotFull) {
                try await BookAppointment(world: world).execute(
                    .fixture(
                        token: "token-bob", startsAt: later.startsAt, durationMinutes: 5, requestID: "bob"))
            }
        } else {
            _ = try await BookAppointment(world: world).execute(later)
        }
    }

    @Test func book_whenTheSlotIsFull_failsWithConflict() async throws {
        let world = try World.test(caller: .suite()) // capacity 1
        _ = try await BookAppointment(world: world).execute(.fixture(token: "token-ada", requestID: "r1"))
        await #expect(throws: BookingError.slotFull) {
            try await BookAppointment(world: world).execute(.fixture(token: "token-bob", requestID: "r2"))
        }
        let error = BookingError.slotFull.serviceError
        #expect(error.code == .conflict)
    }

    @Test func book_whenTheClinicIsClosed_isRefusedWithItsReasonAndNothingStored() async throws {
        let world = try World.test(
            caller: .suite(slot: {
                .init(
                    clinicID: $0.clinicID, clinicName: "Camden Health", offersService: true, isOpen: false,
                    reason: "closed on Sundays")
            }))
        await #expect(throws: BookingError.clinicRefuses(field: "startsAt", reason: "closed on Sundays")) {
            try await BookAppointment(world: world).execute(.fixture())
        }
        #expect(try await world.store.dueMessages(now: testNow.adding(.seconds(1))).isEmpty)
    }

    @Test func book_aServiceTheClinicDoesNotOffer_namesTheServiceField() async throws {
        let world = try World.test(
            caller: .suite(slot: {
                .init(
                    clinicID: $0.clinicID, clinicName: "Camden Health", offersService: false, isOpen: true, reason: "")
            }))
        let refusal = await #expect(throws: BookingError.self) {
            try await BookAppointment(world: world).execute(.fixture())
        }
        let error = try #require(refusal).serviceError
        #expect(error.code == .invalidInput)
        #expect(error.details == [ErrorDetail("field", "service")], "\(error)")
        #expect(try await world.store.dueMessages(now: testNow.adding(.seconds(1))).isEmpty)
    }

    @Test func book_whenIdentityRejectsTheToken_isUnauthenticatedAndStoresNothing() async throws {
        let world = try World.test(caller: .suite())
        let error = await #expect(throws: ServiceError.self) {
            try await BookAppointment(world: world).execute(.fixture(token: "stolen"))
        }
        #expect(error?.code == .unauthenticated)
        #expect(try await world.store.dueMessages(now: testNow.adding(.seconds(1))).isEmpty)
    }

    @Test(arguments: [
        (Appointments.BookInput.fixture(durationMinutes: 2), "durationMinutes"),
        (Appointments.BookInput.fixture(startsAt: testNow), "startsAt"),
        (Appointments.BookInput.fixture(requestID: ""), "requestID"),
        (Appointments.BookInput.fixture(service: .unknown("surgery")), "service"),
        // One character: "a" and 100,000 combining accents, 200,001 bytes.
        (Appointments.BookInput.fixture(reason: "a" + String(repeating: "\u{301}", count: 100_000)), "reason"),
        (Appointments.BookInput.fixture(requestID: "a" + String(repeating: "\u{301}", count: 100_000)), "requestID"),
        (Appointments.BookInput.fixture(startsAt: Timestamp(microsecondsSinceEpoch: Int64.max)), "startsAt"),
        (Appointments.BookInput.fixture(durationMinutes: Int.max), "durationMinutes"),
    ])
    func book_withAnInvalidField_namesTheField(input: Appointments.BookInput, field: String) async throws {
        let world = try World.test(caller: .suite())
        do {
            _ = try await BookAppointment(world: world).execute(input)
            Issue.record("booked an invalid request")
        } catch let error as BookingError {
            #expect(error.serviceError.code == .invalidInput)
            #expect(error.serviceError.detail("field") == field)
        }
    }

    @Test func concurrentBookingsOfOneSlot_takeExactlyItsCapacity_andEachStoredOneIsNotifiedOnce() async throws {
        let notifications = NotificationsFake()
        var settings = World.Settings.test
        settings.slotCapacity = 3
        let world = try World.test(caller: .suite(notifications: notifications), settings: settings)

        let outcomes = await withTaskGroup(of: Result<Booking, any Error>.self) { group in
            for (token, _) in crowd {
                group.addTask {
                    do {
                        return .success(try await BookAppointment(world: world).execute(.fixture(token: token)))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        let booked = outcomes.compactMap { try? $0.get() }
        #expect(booked.count == 3)
        #expect(booked.allSatisfy { $0.appointment.notification == .queued })
        await world.outbox.flushed()
        for outcome in outcomes {
            if case .failure(let error) = outcome { #expect(error as? BookingError == .slotFull) }
        }
        #expect(notifications.keys.sorted() == booked.map { "appointments.booked:\($0.id)" }.sorted())
        for booking in booked { #expect(try await world.store.booking(id: booking.id)?.notified == true) }
    }

    @Test func book_whenNotificationsIsDown_stillBooksAndDeliversExactlyOnceLater() async throws {
        let notifications = NotificationsFake()
        notifications.down.store(true, ordering: .relaxed)
        let clock = TestClock(at: testNow)
        let world = try World.test(caller: .suite(notifications: notifications), clock: clock)
        let commits = WriteCommits.counting(world.store.database)
        notifications.hold.close() // the send after the answer waits, so its failure commits later
        let booking = try await BookAppointment(world: world).execute(.fixture())
        #expect(commits.total == 1, "the booking and its outbox message are one commit")
        #expect(booking.appointment.notification == .queued)
        #expect(try await world.store.booking(id: booking.id)?.status == .booked)
        notifications.hold.open()
        await world.outbox.flushed() // its send after the answer failed: recorded for a retry
        #expect(notifications.keys.isEmpty)
        let queued = try await GetAppointment(world: world).execute(token: "token-ada", id: booking.id).appointment
        #expect(queued.notification == .queued && !queued.notified)

        // Still down at the first retry: nothing sent, still queued.
        clock.advance(.seconds(1))
        #expect(await world.outbox.deliverDue(timeout: nil) == [booking.id])

        notifications.down.store(false, ordering: .relaxed)
        clock.advance(.seconds(1))
        #expect(await world.outbox.deliverDue(timeout: nil).isEmpty)
        clock.advance(.seconds(1))
        #expect(await world.outbox.deliverDue(timeout: nil).isEmpty)
        #expect(notifications.keys == ["appointments.booked:\(booking.id)"])
        #expect(try await world.store.booking(id: booking.id)?.notified == true)
        let sent = try await GetAppointment(world: world).execute(token: "token-ada", id: booking.id).appointment
        #expect(sent.notification == .sent)
    }
}
