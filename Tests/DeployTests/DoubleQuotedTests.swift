import Testing

@testable import VerticalsDeploy

/// systemd's and YAML's quoted strings share one escape loop and differ only in their
/// control-character policy: systemd's `\xNN`, YAML's `\uXXXX`; neither writes one raw.
struct DoubleQuotedTests {
    @Test func bothSyntaxesEscapeTheSameFive_andDifferOnlyOnControlCharacters() {
        let text = "a\\b\"c\nd\te\rf\u{7}g"
        #expect(SystemdSyntax.environmentAssignment("K", text) == "\"K=a\\\\b\\\"c\\nd\\te\\rf\\x07g\"")
        #expect(YAMLEmitter.quoted(text) == "\"a\\\\b\\\"c\\nd\\te\\rf\\u0007g\"")
        #expect(YAMLEmitter.quoted("\u{2028}\u{85}é") == "\"\\u2028\\u0085é\"")
    }
}
