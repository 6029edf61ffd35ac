import Foundation
import IOInterface
import VerticalsContract
import VerticalsWire

/// Section 1: encode + decode round trips per second of three DTOs with our codec, against
/// Foundation's JSON (target ≥ 20×) and a hand-written minimal binary codec (target: within 1.15×).
/// The three are interleaved within every round, each for `slice`.
struct CodecBenchmark {
    let settings: BenchSettings
    let report: Report
    var slice: Duration = .milliseconds(200)

    /// One DTO's three round trips; each returns a number derived from the decoded value, so
    /// that nothing is optimised away.
    struct Subject {
        var name: String
        var ours: () -> Int
        var json: () -> Int
        var handWritten: () -> Int
    }

    func run() {
        let subjects = Self.subjects()
        for subject in subjects {
            _ = rate(for: .milliseconds(50), subject.ours)
            _ = rate(for: .milliseconds(50), subject.json)
            _ = rate(for: .milliseconds(50), subject.handWritten)
        }
        var ours = [[Double]](repeating: [], count: subjects.count)
        var json = ours
        var handWritten = ours
        for round in 1...settings.rounds {
            progress("codec round \(round)/\(settings.rounds)")
            for (index, subject) in subjects.enumerated() {
                ours[index].append(rate(for: slice, subject.ours))
                json[index].append(rate(for: slice, subject.json))
                handWritten[index].append(rate(for: slice, subject.handWritten))
            }
        }
        for (index, subject) in subjects.enumerated() {
            report.add(
                "codec", "\(subject.name) vs JSON", unit: "rt/s", ours: ours[index], baselineName: "JSON",
                baseline: json[index], ratioName: "ours/JSON", target: .atLeast(20))
            report.add(
                "codec", "\(subject.name) vs hand-written", unit: "rt/s", ours: ours[index],
                baselineName: "hand", baseline: handWritten[index], ratioName: "hand/ours", inverted: true,
                target: .atMost(1.15))
        }
    }

    /// Round trips per second of `roundTrip`, run for at least `duration`.
    @inline(never)
    func rate(for duration: Duration, _ roundTrip: () -> Int) -> Double {
        var count = 0
        var sink = 0
        let start = ContinuousClock.now
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<8 { sink &+= roundTrip() }
            count += 8
            elapsed = .now - start
        } while elapsed < duration
        blackHole(sink)
        return Double(count) / elapsed.seconds
    }

    /// The three subjects, each checked once: every codec must give back the value it was given.
    static func subjects() -> [Subject] {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        let login = CodecFixtures.login
        let booking = CodecFixtures.booking
        let clinics = CodecFixtures.clinics
        let loginJSON = JSONMirrors.login(login)
        let bookingJSON = JSONMirrors.booking(booking)
        let clinicsJSON = JSONMirrors.clinics(clinics)

        check(try Identity.LoginInput(decoding: login.encodedBody()) == login, "our codec, LoginInput")
        check(try Appointments.BookInput(decoding: booking.encodedBody()) == booking, "our codec, BookInput")
        check(try Clinics.ClinicList(decoding: clinics.encodedBody()) == clinics, "our codec, ClinicList")
        check(try HandWrittenCodec.decodeLogin(HandWrittenCodec.encode(login)) == login, "hand-written, LoginInput")
        check(
            try HandWrittenCodec.decodeBooking(HandWrittenCodec.encode(booking)) == booking, "hand-written, BookInput")
        check(
            try HandWrittenCodec.decodeClinics(HandWrittenCodec.encode(clinics)) == clinics, "hand-written, ClinicList")
        check(
            try decoder.decode(JSONMirrors.ClinicList.self, from: encoder.encode(clinicsJSON)) == clinicsJSON,
            "JSON, ClinicList")

        return [
            Subject(
                name: "LoginInput (small)",
                ours: { (try? Identity.LoginInput(decoding: login.encodedBody()))?.email.utf8.count ?? 0 },
                json: {
                    (try? decoder.decode(JSONMirrors.Login.self, from: encoder.encode(loginJSON)))?.email.utf8.count
                        ?? 0
                },
                handWritten: {
                    (try? HandWrittenCodec.decodeLogin(HandWrittenCodec.encode(login)))?.email.utf8.count ?? 0
                }),
            Subject(
                name: "BookInput",
                ours: {
                    (try? Appointments.BookInput(decoding: booking.encodedBody(capacity: 256)))?.durationMinutes ?? 0
                },
                json: {
                    (try? decoder.decode(JSONMirrors.Booking.self, from: encoder.encode(bookingJSON)))?.durationMinutes
                        ?? 0
                },
                handWritten: {
                    (try? HandWrittenCodec.decodeBooking(HandWrittenCodec.encode(booking)))?.durationMinutes ?? 0
                }),
            Subject(
                name: "ClinicList ×100",
                ours: {
                    (try? Clinics.ClinicList(decoding: clinics.encodedBody(capacity: 256 * 100)))?.clinics.count ?? 0
                },
                json: {
                    (try? decoder.decode(JSONMirrors.ClinicList.self, from: encoder.encode(clinicsJSON)))?.clinics.count
                        ?? 0
                },
                handWritten: {
                    (try? HandWrittenCodec.decodeClinics(HandWrittenCodec.encode(clinics)))?.clinics.count ?? 0
                }),
        ]
    }

    private static func check(_ condition: @autoclosure () throws -> Bool, _ what: String) {
        guard (try? condition()) == true else { fail("\(what) does not round-trip its fixture") }
    }
}

/// Keeps `value` alive as far as the optimiser knows.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

extension Duration {
    /// This duration in seconds, as a Double.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// This duration in microseconds, as a Double.
    var microseconds: Double { seconds * 1e6 }
}
