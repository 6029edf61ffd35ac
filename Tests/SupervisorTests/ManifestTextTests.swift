import Testing
import VerticalsSupervisor
import VerticalsSharedTesting

/// Values that would change the syntax of a file an export writes are refused where the
/// manifest is read, by `check` as by `up`, each naming its key and what to do.
@Suite struct ManifestTextTests {
    static func service(_ lines: String) -> String {
        "[services.echo]\n\(lines)\n"
    }

    @Test(arguments: [
        ("certificates = \"/etc/certs\\nExecStartPre=+/bin/sh\"", "certificates", "U+000A"),
        ("certificates = \"/etc//certs\"", "certificates", "not a normalised path"),
        ("certificates = \"/etc/certs/../x\"", "certificates", "not a normalised path"),
        ("certificates = \"/etc/certs/\"", "certificates", "not a normalised path"),
        ("certificates = \"certs\\r\"", "certificates", "U+000D"),
        ("executable = \"x;touch${IFS}/tmp/owned;#\"", "executable", "plain program name"),
        ("executable = \"x\\nRUN touch /tmp/owned\"", "executable", "U+000A"),
        ("executable = \"bin/..\"", "executable", "plain program name"),
        ("executable = \"a b\"", "executable", "plain program name"),

        ("args = [\"ok\", \"a\\rb\"]", "args", "item 2 holds the control character U+000D"),
        ("env = { GREETING = \"a\\u001bb\" }", "env.GREETING", "U+001B"),
    ])
    func aValueThatWouldChangeAnExportsSyntax_isRefusedNamingItsKey(line: String, key: String, message: String) throws {
        let executable = line.hasPrefix("executable") ? "" : "executable = \"true\"\n"
        let problems = ManifestFixture.problems(Self.service(executable + line))
        let problem = try #require(problems.only(service: "echo", key: key))
        #expect(problem.message.contains(message), "\(problem)")
    }

    /// toml++ ends a string at NUL, dropping the rest: refused before it reads the text.
    @Test func aNULInAString_isRefusedAtItsLineAndColumn() throws {
        let problems = ManifestFixture.problems(Self.service("executable = \"true\"\nargs = [\"a\\u0000b\"]"))
        let problem = try #require(problems.only(service: nil, key: nil))
        #expect(problem.code == .syntax && problem.detail("line") == "3", "\(problem)")
    }

    @Test(arguments: [
        "certificates = \"certs\"", "certificates = \"../shared/certs\"", "certificates = \"/etc/verticals/certs\"",
        "args = [\"--greeting\", \"tab\\there\", \"two\\nlines\", \"50%\", \"$HOME\", \"a;b\"]",
        "env = { GREETING = \"on: 1 # not a comment\\nsecond line\" }", "executable = \"/bin/../bin/true\"",
    ])
    func aValueAnExportCanQuote_isAccepted(line: String) {
        let executable = line.hasPrefix("executable") ? "" : "executable = \"true\"\n"
        #expect(ManifestFixture.problems(Self.service(executable + line)).isEmpty)
    }

    @Test func aRelativeCertificatesFolder_isTakenFromTheManifestsFolder_normalised() {
        let manifest = ManifestFixture.valid(
            Self.service("executable = \"true\"\ncertificates = \"../shared/./certs\""))
        #expect(manifest.services.first?.certificates == "/etc/shared/certs")
    }
}
