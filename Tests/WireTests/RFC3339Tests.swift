import Testing
import VerticalsWire

@Suite("RFC 3339")
struct RFC3339Tests {
    @Test(
        "instants format as UTC with microseconds only when needed",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00Z"),
            (1_795_426_200_000_000, "2026-11-23T09:30:00Z"),
            (1_795_426_200_000_001, "2026-11-23T09:30:00.000001Z"),
            (1_709_164_800_000_000, "2024-02-29T00:00:00Z"),
            (951_782_400_000_000, "2000-02-29T00:00:00Z"),
            (-1, "1969-12-31T23:59:59.999999Z"),
            (-1_000_000, "1969-12-31T23:59:59Z"),
            (-2_208_988_800_000_000, "1900-01-01T00:00:00Z"),
            (-62_135_596_800_000_000, "0001-01-01T00:00:00Z"),
            (-62_167_219_200_000_000, "0000-01-01T00:00:00Z"),
            (-62_167_219_200_000_001, "-000001-12-31T23:59:59.999999Z"),
            (253_402_300_800_000_000, "+010000-01-01T00:00:00Z"),
            (Int64.max, "+294247-01-10T04:00:54.775807Z"),
            (Int64.min, "-290308-12-21T19:59:05.224192Z"),
        ])
    func format_writesUTC_andParseReadsItBack(micros: Int64, text: String) {
        let timestamp = Timestamp(microsecondsSinceEpoch: micros)
        #expect(RFC3339.format(timestamp) == text)
        #expect(RFC3339.parse(text) == timestamp)
        #expect(timestamp.description == text)
    }

    @Test(
        "offsets, lower-case separators and long fractions are understood",
        arguments: [
            ("2026-11-23T10:30:00+01:00", Int64(1_795_426_200_000_000)),
            ("2026-11-23T04:00:00-05:30", 1_795_426_200_000_000),
            ("2026-11-23t09:30:00z", 1_795_426_200_000_000),
            ("2026-11-23T09:30:00.5Z", 1_795_426_200_500_000),
            ("2026-11-23T09:30:00.123456789Z", 1_795_426_200_123_456),
            ("2026-11-23T09:30:00-00:00", 1_795_426_200_000_000),
            ("1970-01-01T00:59:59+01:00", -1_000_000),
            ("+002026-11-23T09:30:00Z", 1_795_426_200_000_000),
        ])
    func parse_givenOffsetsAndFractions_findsTheInstant(text: String, micros: Int64) {
        #expect(RFC3339.parse(text) == Timestamp(microsecondsSinceEpoch: micros))
    }

    @Test(
        "anything else is rejected",
        arguments: [
            "", "2026", "2026-11-23", "2026-11-23T09:30Z", "2026-11-23T09:30:00", "2026-11-23 09:30:00Z",
            "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-11-31T00:00:00Z", "2026-11-00T00:00:00Z",
            "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T23:60:00Z",
            "2026-11-23T23:59:61Z", "2026-11-23T09:30:00.Z", "2026-11-23T09:30:00+0100", "2026-11-23T09:30:00+01",
            "2026-11-23T09:30:00+24:00", "2026-11-23T09:30:00+01:60", "2026-11-23T09:30:00Zjunk",
            " 2026-11-23T09:30:00Z", "2026-1-23T09:30:00Z", "abcd-ef-ghTij:kl:mnZ", "-000000-01-01T00:00:00Z",
            "+999999-01-01T00:00:00Z", "-999999-01-01T00:00:00Z", "20261-11-23T09:30:00Z", "2026-11-23T09:30:00ZZ",
            "２０２６-11-23T09:30:00Z",
        ])
    func parse_givenGarbage_returnsNil(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func parse_givenALeapSecond_readsItAsTheNextSecond() {
        #expect(RFC3339.parse("2016-12-31T23:59:60Z") == RFC3339.parse("2017-01-01T00:00:00Z"))
    }

    @Test("random instants round-trip", arguments: UInt64(1)...4)
    func format_thenParse_givesTheSameInstant(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            let micros =
                Bool.random(using: &random)
                ? Int64.random(in: .min ... .max, using: &random)
                : Int64.random(in: -5_000_000_000_000_000...5_000_000_000_000_000, using: &random)
            let timestamp = Timestamp(microsecondsSinceEpoch: micros)
            #expect(RFC3339.parse(RFC3339.format(timestamp)) == timestamp)
        }
    }
}
