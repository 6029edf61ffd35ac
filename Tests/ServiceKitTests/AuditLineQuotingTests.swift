import Testing
import VerticalsServiceKit

/// A value in an audit line stays one logfmt value: it cannot end the line or forge a field.
struct AuditLineQuotingTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", "\"\""),
        ("a=b", "\"a=b\""),
        ("back\\slash", "\"back\\\\slash\""),
        ("line\nbreak\rreturn\ttab", "\"line\\nbreak\\rreturn\\ttab\""),
        ("bell\u{7}escape\u{1B}", "\"bell escape \""),
    ])
    func quoted_escapesWhatWouldSplitTheLine(value: String, written: String) {
        #expect(AuditLine.quoted(value) == written)
        #expect(!AuditLine.quoted(value).contains { $0 == "\n" || $0 == "\r" || $0 == "\t" })
    }
}
