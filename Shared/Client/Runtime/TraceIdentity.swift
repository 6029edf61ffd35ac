/// Where a span sits in its trace: the trace id (128 bits), its own span id, its parent's, and
/// whether the trace is sampled (W3C `trace-flags` bit 0).
///
/// A plain value of four words and a flag: the request path carries one per request without
/// allocating. It becomes text only when a call is sent on (``traceparent``) or shown.
public struct TraceIdentity: Sendable, Hashable {
    /// The trace id's high 64 bits.
    public var traceHigh: UInt64
    /// The trace id's low 64 bits (the sampling decision hashes these).
    public var traceLow: UInt64
    /// This span's id (never 0).
    public var spanID: UInt64
    /// The parent span's id; 0 for the root of a trace.
    public var parentSpanID: UInt64
    /// Whether the trace is sampled: its spans are recorded in full and exported.
    public var sampled: Bool

    /// A span's identity; `parentSpanID` 0 makes it a root.
    public init(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, parentSpanID: UInt64 = 0, sampled: Bool) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.sampled = sampled
    }

    /// A child of this span: same trace and sampling, a fresh span id, this span as its parent.
    public func child(spanID: UInt64) -> TraceIdentity {
        TraceIdentity(
            traceHigh: traceHigh, traceLow: traceLow, spanID: spanID, parentSpanID: self.spanID, sampled: sampled)
    }

    /// The trace id as 32 lowercase hex digits.
    public var traceID: String { Hex.word(traceHigh) + Hex.word(traceLow) }
    /// The span id as 16 lowercase hex digits.
    public var spanIDText: String { Hex.word(spanID) }

    /// The W3C `traceparent` naming this span as the parent of a call: `00-TRACE-SPAN-FLAGS`.
    /// Written in place: one allocation (the string's 55 bytes).
    public var traceparent: String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            buffer[0] = 0x30
            buffer[1] = 0x30
            buffer[2] = 0x2d
            Hex.write(traceHigh, into: buffer, at: 3)
            Hex.write(traceLow, into: buffer, at: 19)
            buffer[35] = 0x2d
            Hex.write(spanID, into: buffer, at: 36)
            buffer[52] = 0x2d
            buffer[53] = 0x30
            buffer[54] = sampled ? 0x31 : 0x30
            return 55
        }
    }

    /// The trace id, span id (as parent) and flags of a W3C `traceparent`; nil when it is not
    /// one (W3C: the callee then starts a new trace). Version `ff` and all-zero ids are invalid.
    public static func parse(traceparent text: String) -> (
        traceHigh: UInt64, traceLow: UInt64, parent: UInt64, sampled: Bool
    )? {
        var text = text
        return text.withUTF8 { bytes -> (UInt64, UInt64, UInt64, Bool)? in
            // version(2) - trace(32) - parent(16) - flags(2); a later version may append "-…".
            guard bytes.count >= 55, bytes[2] == 0x2d, bytes[35] == 0x2d, bytes[52] == 0x2d,
                bytes.count == 55 || bytes[55] == 0x2d,
                let version = Hex.value(bytes, 0, 2), version != 0xff, version != 0 || bytes.count == 55,
                let high = Hex.value(bytes, 3, 16), let low = Hex.value(bytes, 19, 16),
                let parent = Hex.value(bytes, 36, 16), let flags = Hex.value(bytes, 53, 2),
                high | low != 0, parent != 0
            else { return nil }
            return (high, low, parent, flags & 1 == 1)
        }
    }
}

/// Lowercase hexadecimal for trace ids (no Foundation).
package enum Hex {
    /// `value` as 16 hex digits.
    package static func word(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            write(value, into: buffer, at: 0)
            return 16
        }
    }

    /// Writes `value` as 16 hex digits into `buffer` from `start`.
    package static func write(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xf
            buffer[start + index] = nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
        }
    }

    /// The number `count` hex digits (≤ 16) at `start` spell, or nil if one is not a lowercase hex digit.
    package static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes[start..<start + count] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// Parses 32 (trace id) or 16 (span id) hex digits; nil otherwise.
    package static func traceID(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text.lowercased()
        return text.withUTF8 { bytes in
            guard bytes.count == 32, let high = value(bytes, 0, 16), let low = value(bytes, 16, 16) else { return nil }
            return (high, low)
        }
    }
}
