import VerticalsTestSupport
import Testing
import VerticalsWire

/// A `timestamp` is an instant of the years 0001 to 9999 (docs/PROTOCOL.md § 6): the direct
/// decoder, the generic one and the JSON form refuse any other, so no vertical ever does
/// arithmetic near `Int64`'s ends; and `Timestamp`'s checked arithmetic reports overflow.
@Suite("Timestamps outside years 1 to 9999")
struct TimestampRangeTests {
    static let earliest: Int64 = -62_135_596_800_000_000
    static let latest: Int64 = 253_402_300_799_999_999

    /// The edges: each instant and whether the codec accepts it.
    static let edges: [(Int64, Bool)] = [
        (earliest, true), (earliest - 1, false), (latest, true), (latest + 1, false),
        (Int64.min, false), (Int64.max, false), (0, true),
    ]

    /// The body of a `specimen.CheckSlotInput` whose slot starts at `micros`, written by hand
    /// (the direct encoder writes whatever it is given, as a hostile client would).
    static func checkSlotBody(startsAt micros: Int64) -> [UInt8] {
        var body = BodyWriter()
        body.write(1, "c_1")
        body.write(2, Specimen.Service.gp)
        body.write(3, Timestamp(microsecondsSinceEpoch: micros))
        body.write(4, Timestamp(microsecondsSinceEpoch: 0))
        return body.buffer.bytes
    }

    @Test func theRange_isYears1To9999() {
        #expect(Timestamp.earliest.description == "0001-01-01T00:00:00Z")
        #expect(Timestamp.latest.description == "9999-12-31T23:59:59.999999Z")
        #expect(Timestamp.wireRange == Timestamp.earliest...Timestamp.latest)
    }

    @Test("the direct decoder refuses an instant outside the range, naming the field", arguments: edges)
    func directDecoder_refusesOutOfRange(micros: Int64, accepted: Bool) throws {
        let body = Self.checkSlotBody(startsAt: micros)
        if accepted {
            #expect(try Specimen.CheckSlotInput(decoding: body).startsAt.microsecondsSinceEpoch == micros)
        } else {
            let error = #expect(throws: WireDecodingError.self) { try Specimen.CheckSlotInput(decoding: body) }
            #expect(error?.fieldPath == "specimen.CheckSlotInput.startsAt")
            #expect(error?.description.contains("0001-01-01T00:00:00Z...9999-12-31T23:59:59.999999Z") == true)
        }
    }

    @Test("the generic decoder refuses an instant outside the range", arguments: edges)
    func genericDecoder_refusesOutOfRange(micros: Int64, accepted: Bool) throws {
        let body = Self.checkSlotBody(startsAt: micros)
        do {
            let value = try MessageValue(decoding: body, as: Specimen.CheckSlotInput.schema)
            #expect(accepted)
            #expect(value[3] == .timestamp(Timestamp(microsecondsSinceEpoch: micros)))
        } catch {
            #expect(!accepted)
            #expect(error.fieldPath == "specimen.CheckSlotInput.startsAt")
        }
    }

    @Test("the JSON form refuses an instant outside the range", arguments: edges)
    func jsonForm_refusesOutOfRange(micros: Int64, accepted: Bool) throws {
        let text = RFC3339.format(Timestamp(microsecondsSinceEpoch: micros))
        let json = #"{"siteID": "c_1", "service": "gp", "startsAt": "\#(text)", "endsAt": "2026-01-01T00:00:00Z"}"#
        if accepted {
            #expect(try Specimen.CheckSlotInput(json: json).startsAt.microsecondsSinceEpoch == micros)
        } else {
            let error = #expect(throws: WireValueError.self) { try Specimen.CheckSlotInput(json: json) }
            #expect(error?.code == .outOfRange)
            #expect(error?.path == "startsAt")
        }
    }

    @Test func theGenericEncoder_refusesToSendAnInstantOutsideTheRange() {
        let value: MessageValue = [
            1: .string("c_1"), 2: .enumeration("gp"), 3: .timestamp(Timestamp(microsecondsSinceEpoch: Int64.min)),
            4: .timestamp(.epoch),
        ]
        let error = #expect(throws: WireValueError.self) { try value.encoded(as: Specimen.CheckSlotInput.schema) }
        #expect(error?.code == .outOfRange)
    }

    @Test func addingReportingOverflow_reportsWhatAddingWouldTrapOn() throws {
        let last = Timestamp(microsecondsSinceEpoch: Int64.max)
        #expect(last.addingReportingOverflow(.microseconds(1)).overflow)
        #expect(Timestamp.epoch.addingReportingOverflow(.seconds(Int64.max)).overflow)
        #expect(!Timestamp.epoch.addingReportingOverflow(.seconds(60)).overflow)
        #expect(Timestamp.epoch.addingReportingOverflow(.seconds(60)).partialValue == Timestamp(secondsSinceEpoch: 60))
        let error = #expect(throws: TimestampOverflowError.self) { try last.checkedAdding(.seconds(1)) }
        #expect(error?.timestamp == last)
        #expect(try Timestamp.epoch.checkedAdding(.milliseconds(-1)) == Timestamp(microsecondsSinceEpoch: -1_000))
        #expect(Timestamp(exactlySecondsSinceEpoch: Int64.max) == nil)
        #expect(Timestamp(exactlySecondsSinceEpoch: -5) == Timestamp(secondsSinceEpoch: -5))
    }

    @Test func durationTo_neverOverflows_evenBetweenTheEndsOfInt64() {
        let first = Timestamp(microsecondsSinceEpoch: Int64.min)
        let last = Timestamp(microsecondsSinceEpoch: Int64.max)
        #expect(first.duration(to: last) > .seconds(Int64.max / 1_000_000))
        #expect(last.duration(to: first) < .zero)
        #expect(Timestamp.epoch.duration(to: Timestamp(secondsSinceEpoch: 90)) == .seconds(90))
    }
}
