import Glibc
import Testing
import VerticalsTesting

/// `vt-embed`, which carries the scaffold's templates into the program: whatever a file holds,
/// the literal it writes compiles to exactly the file's text.
@Suite(.blocking) struct EmbedToolTests {
    @Test func aFileThatLooksLikeALiteralsEnd_orAnEscape_isEmbeddedExactly() throws {
        let directory = TemporaryDirectory()
        let folder = directory.file("templates")
        mkdir(folder, 0o755)
        // Each would end a raw literal of one `#`, or interpolate or escape in it; no last line break.
        let hostile = "a \"\"\"# b \"\"\"## c \\#(d) \\##(e) \\#n \"# \\\\ {{Name}}\n\tend"
        let file = "\(folder)/hostile.txt.template"
        try #require(writeFile(hostile, to: file))
        let source = directory.file("Embedded.swift")
        let embedded = try runCommand(
            "vt-embed", ["--root", folder, "--type", "Probe", "--output", source, file], in: directory)
        try #require(embedded.status == 0, "\(embedded.standardError)")
        let main = directory.file("main.swift")
        try #require(writeFile(#"print(Probe.texts["hostile.txt"]!, terminator: "")"# + "\n", to: main))
        let program = directory.file("probe")
        let built = try runCommand(
            "/bin/sh", ["-c", "swiftc -o \"$0\" \"$1\" \"$2\" 2>&1", program, source, main],
            environment: PackageBuild.environment(in: directory), in: directory, timeout: .seconds(180))
        try #require(built.status == 0, "the embedded literal does not compile:\n\(built.standardOutput)")
        let printed = try runCommand(program, [], in: directory)
        #expect(printed.standardOutput == hostile)

        let carriageReturn = "\(folder)/crlf.template"
        try #require(writeFile("a\r\n", to: carriageReturn))
        let refused = try runCommand(
            "vt-embed", ["--root", folder, "--type", "Probe", "--output", source, carriageReturn], in: directory)
        #expect(refused.status == 1 && refused.standardError.contains("carriage return"), "\(refused.standardError)")
    }
}
