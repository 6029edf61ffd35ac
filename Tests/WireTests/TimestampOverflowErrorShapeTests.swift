import Testing
import VerticalsWire

/// `TimestampOverflowError` in the framework's one error shape (`CodedError`): its code is
/// `overflow`, the instant and the duration are details, and it prints as before.
struct TimestampOverflowErrorShapeTests {
    @Test func movingPastTheRange_isAnOverflow_withItsInstantAndDuration() {
        let start = Timestamp(microsecondsSinceEpoch: Int64.max - 1)
        let error = #expect(throws: TimestampOverflowError.self) { try start.checkedAdding(.seconds(1)) }

        #expect(error?.code == .overflow)
        #expect(error?.detail("timestamp") == start.description && error?.detail("duration") == "1.0 seconds")
        #expect(
            error?.description.hasSuffix("is outside what a timestamp holds (about ±292,000 years from 1970)") == true)
    }
}
