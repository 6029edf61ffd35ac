import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Records

extension Records.AddEntryInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", kind: Records.EntryKind = .allergy,
        text: String = "Penicillin: hives within an hour (2019).", clinicID: String? = "c_0001"
    ) -> Self {
        .init(token: token, kind: kind, text: text, clinicID: clinicID)
    }

    static let minimal = Self(token: "", kind: .note, text: "")
}

extension Records.HistoryInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E",
        kind: Records.EntryKind? = .unknown("vaccination"), limit: Int = 20, cursor: String? = "AQIAAAGbXLzvkAAAAAAAAAAAKpX1c0QmZ3Aw"
    ) -> Self {
        .init(token: token, kind: kind, limit: limit, cursor: cursor)
    }

    static let minimal = Self(token: "")
}

extension Records.NearbyPharmaciesInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", latitude: Double = 53.480_8,
        longitude: Double = -2.242_6, limit: Int = 3
    ) -> Self {
        .init(token: token, latitude: latitude, longitude: longitude, limit: limit)
    }

    static let minimal = Self(token: "", latitude: -90, longitude: 180)
}

extension Records.DeleteEntryInput {
    static func fixture(token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", id: String = "r_2e9c") -> Self {
        .init(token: token, id: id)
    }

    static let minimal = Self(token: "", id: "")
}

extension Records.Entry {
    static func fixture(
        id: String = "r_2e9c", userID: String = "u_7f3a", kind: Records.EntryKind = .medication,
        text: String = "Salbutamol 100 µg inhaler, two puffs when needed.", clinicID: String? = "c_0001",
        clinicName: String? = "Hill Street Surgery",
        createdAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_426_200_654_321)
    ) -> Self {
        .init(
            id: id, userID: userID, kind: kind, text: text, clinicID: clinicID, clinicName: clinicName,
            createdAt: createdAt)
    }

    static let minimal = Self(id: "", userID: "", kind: .note, text: "", createdAt: .epoch)
}

extension Records.History {
    static func fixture(
        entries: [Records.Entry] = [
            .fixture(), .fixture(id: "r_0001", kind: .unknown("immunisation"), clinicID: nil, clinicName: nil),
            .minimal,
        ],
        clinicNamesResolved: Bool = true, nextCursor: String? = "AQIAAAGbXLzvkAAAAAAAAAAAKpX1c0QmZ3Aw"
    ) -> Self {
        .init(entries: entries, clinicNamesResolved: clinicNamesResolved, nextCursor: nextCursor)
    }

    static let minimal = Self(entries: [], clinicNamesResolved: false)
}

extension Fixtures {
    /// A full and a minimal example of every Input and Output of records.
    static let records: [Example] = [
        pair(Records.AddEntryInput.fixture(), .minimal),
        pair(Records.HistoryInput.fixture(), .minimal),
        pair(Records.NearbyPharmaciesInput.fixture(), .minimal),
        pair(Records.DeleteEntryInput.fixture(), .minimal),
        pair(Records.Entry.fixture(), .minimal),
        pair(Records.History.fixture(), .minimal),
    ].flatMap { $0 }
}
