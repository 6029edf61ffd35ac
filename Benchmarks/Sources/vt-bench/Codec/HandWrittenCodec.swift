import IOInterface
import VerticalsContract
import VerticalsWire

/// The ceiling: a minimal binary encoding of the same structs, written by hand. Fields in a
/// fixed order, no tags, no field table, no evolvability: varint integers and lengths,
/// UTF-8 strings, doubles as 8 bytes, arrays as a count then their elements. Enums travel as
/// their names, as on our wire (an index would not survive a reordered or unknown case).
enum HandWrittenCodec {
    // MARK: Encoding

    static func encode(_ value: Identity.LoginInput) -> [UInt8] {
        var out = MinimalWriter(capacity: 64)
        out.string(value.email)
        out.string(value.password)
        return out.bytes
    }

    static func encode(_ value: Appointments.BookInput) -> [UInt8] {
        var out = MinimalWriter(capacity: 256)
        out.string(value.token)
        out.string(value.clinicID)
        out.string(value.service.wireName)
        out.varint(UInt64(bitPattern: value.startsAt.microsecondsSinceEpoch))
        out.varint(UInt64(value.durationMinutes))
        out.string(value.reason)
        out.string(value.requestID)
        return out.bytes
    }

    static func encode(_ value: Clinics.ClinicList) -> [UInt8] {
        var out = MinimalWriter(capacity: 256 * value.clinics.count)
        out.varint(UInt64(value.clinics.count))
        for clinic in value.clinics {
            out.string(clinic.id)
            out.string(clinic.name)
            out.string(clinic.address)
            out.double(clinic.latitude)
            out.double(clinic.longitude)
            out.string(clinic.timeZone)
            if let phone = clinic.phone {
                out.byte(1)
                out.string(phone)
            } else {
                out.byte(0)
            }
            out.varint(UInt64(clinic.services.count))
            for service in clinic.services { out.string(service.wireName) }
            out.varint(UInt64(clinic.hours.count))
            for hours in clinic.hours {
                out.string(hours.weekday.wireName)
                out.varint(UInt64(hours.opens))
                out.varint(UInt64(hours.closes))
            }
            out.varint(UInt64(bitPattern: clinic.createdAt.microsecondsSinceEpoch))
        }
        return out.bytes
    }

    // MARK: Decoding

    static func decodeLogin(_ bytes: [UInt8]) throws(MinimalReader.Truncated) -> Identity.LoginInput {
        var input = MinimalReader(bytes)
        return Identity.LoginInput(email: try input.string(), password: try input.string())
    }

    static func decodeBooking(_ bytes: [UInt8]) throws(MinimalReader.Truncated) -> Appointments.BookInput {
        var input = MinimalReader(bytes)
        return Appointments.BookInput(
            token: try input.string(), clinicID: try input.string(),
            service: Clinics.Service(wireName: try input.string()),
            startsAt: Timestamp(microsecondsSinceEpoch: Int64(bitPattern: try input.varint())),
            durationMinutes: Int(try input.varint()), reason: try input.string(), requestID: try input.string())
    }

    static func decodeClinics(_ bytes: [UInt8]) throws(MinimalReader.Truncated) -> Clinics.ClinicList {
        var input = MinimalReader(bytes)
        let count = Int(try input.varint())
        var clinics: [Clinics.Clinic] = []
        clinics.reserveCapacity(count)
        for _ in 0..<count {
            let id = try input.string()
            let name = try input.string()
            let address = try input.string()
            let latitude = try input.double()
            let longitude = try input.double()
            let timeZone = try input.string()
            let phone = try input.byte() == 1 ? try input.string() : nil
            var services: [Clinics.Service] = []
            for _ in 0..<Int(try input.varint()) { services.append(Clinics.Service(wireName: try input.string())) }
            var hours: [Clinics.OpeningHours] = []
            for _ in 0..<Int(try input.varint()) {
                hours.append(
                    Clinics.OpeningHours(
                        weekday: Clinics.Weekday(wireName: try input.string()), opens: Int(try input.varint()),
                        closes: Int(try input.varint())))
            }
            let createdAt = Timestamp(microsecondsSinceEpoch: Int64(bitPattern: try input.varint()))
            clinics.append(
                Clinics.Clinic(
                    id: id, name: name, address: address, latitude: latitude, longitude: longitude, timeZone: timeZone,
                    phone: phone, services: services, hours: hours, createdAt: createdAt))
        }
        return Clinics.ClinicList(clinics: clinics)
    }
}

/// Appends bytes to an array: the whole of the hand-written encoder's machinery.
struct MinimalWriter {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Reads what ``MinimalWriter`` wrote; running out of bytes is the only error.
struct MinimalReader {
    /// The input ended inside a value.
    struct Truncated: Error {}

    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() throws(Truncated) -> UInt8 {
        guard index < bytes.count else { throw Truncated() }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func varint() throws(Truncated) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            value |= UInt64(next & 0x7f) << shift
            if next < 0x80 { return value }
            shift += 7
            guard shift < 64 else { throw Truncated() }
        }
    }

    mutating func double() throws(Truncated) -> Double {
        guard bytes.count - index >= 8 else { throw Truncated() }
        var raw: UInt64 = 0
        for offset in 0..<8 { raw |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
        index += 8
        return Double(bitPattern: UInt64(littleEndian: raw))
    }

    mutating func string() throws(Truncated) -> String {
        let count = Int(try varint())
        guard bytes.count - index >= count else { throw Truncated() }
        defer { index += count }
        return String(decoding: bytes[index..<index + count], as: UTF8.self)
    }
}
