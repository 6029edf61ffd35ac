import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Records

extension Records.AddEntryInput {
    static let full = Self(
        token: Fixtures.token, kind: .allergy, text: "Penicillin: hives within an hour (2019).", clinicID: "c_0001")
    static let minimal = Self(token: "", kind: .note, text: "")
}

extension Records.HistoryInput {
    static let full = Self(
        token: Fixtures.token, kind: .unknown("vaccination"), limit: 20, cursor: "AQIAAAGbXLzvkAAAAAAAAAAAKpX1c0QmZ3Aw")
    static let minimal = Self(token: "")
}

extension Records.NearbyPharmaciesInput {
    static let full = Self(token: Fixtures.token, latitude: 53.480_8, longitude: -2.242_6, limit: 3)
    static let minimal = Self(token: "", latitude: -90, longitude: 180)
}

extension Records.DeleteEntryInput {
    static let full = Self(token: Fixtures.token, id: "r_2e9c")
    static let minimal = Self(token: "", id: "")
}

extension Records.Entry {
    static let full = Self(
        id: "r_2e9c", userID: "u_7f3a", kind: .medication, text: "Salbutamol 100 µg inhaler, two puffs when needed.",
        clinicID: "c_0001", clinicName: "Hill Street Surgery",
        createdAt: Timestamp(microsecondsSinceEpoch: 1_795_426_200_654_321))
    static let minimal = Self(id: "", userID: "", kind: .note, text: "", createdAt: .epoch)
}

extension Records.History {
    static let full = Self(
        entries: [
            .full,
            Records.Entry.full.with {
                $0.id = "r_0001"
                $0.kind = .unknown("immunisation")
                $0.clinicID = nil
                $0.clinicName = nil
            },
            .minimal,
        ],
        clinicNamesResolved: true, nextCursor: "AQIAAAGbXLzvkAAAAAAAAAAAKpX1c0QmZ3Aw")
    static let minimal = Self(entries: [], clinicNamesResolved: false)
}
