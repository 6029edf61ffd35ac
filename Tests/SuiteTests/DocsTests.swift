import Glibc
import Testing
import VerticalsTesting

/// The documentation runs: every fenced `sh` block of README.md and docs/*.md, in file order,
/// against a live suite under svc-supervisor (one per page), with the rules of ``DocBlock``.
/// A block that cannot run in a test says why on the line before it (`<!-- not run: REASON -->`),
/// and the skipped blocks are listed with their reasons.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10)))
struct DocsTests {
    /// The package root, where README.md, docs/ and deploy/ are.
    static let packageRoot = String(#filePath).split(separator: "/").dropLast(3).map { "/" + $0 }.joined()

    /// README.md, then docs/*.md by name.
    static func pages() -> [String] {
        var pages: [String] = []
        if let folder = opendir(packageRoot + "/docs") {
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasSuffix(".md") { pages.append("docs/" + name) }
            }
            closedir(folder)
        }
        return ["README.md"] + pages.sorted()
    }

    /// Every page's blocks, or the problems that keep a page from being read.
    static func allBlocks() -> (blocks: [DocBlock], problems: [DocBlockProblem]) {
        var blocks: [DocBlock] = []
        var problems: [DocBlockProblem] = []
        for page in pages() {
            guard let text = readFile(packageRoot + "/" + page) else {
                problems.append(DocBlockProblem(location: page, problem: "cannot be read"))
                continue
            }
            do { blocks += try DocBlock.blocks(in: text, page: page) } catch { problems.append(error) }
        }
        return (blocks, problems)
    }

    // MARK: The rules, on text

    @Test func aTranscript_splitsCommandsFromTheirOutput_andAScriptRunsEachLine() throws {
        let page = """
            Intro.
            ```sh
            $ svc-supervisor status
            NAME  STATE
            identity  ready  …
            $ svc-supervisor call clinics create '{"name": "Hill",
                "latitude": 53.8}'
            $ echo done \\
                again
            ```
            ```console
            $ not run: another language
            ```
            ```sh
            # a comment line
            svc-supervisor routes   # every route
            make build && \\
                svc-supervisor reload
            ```
            """
        let blocks = try DocBlock.blocks(in: page, page: "p.md")
        #expect(blocks.count == 2)
        #expect(blocks[0].line == 2)
        #expect(
            blocks[0].commands == [
                .init(text: "svc-supervisor status", line: 3, expected: ["NAME  STATE", "identity  ready  …"]),
                .init(
                    text: "svc-supervisor call clinics create '{\"name\": \"Hill\",\n    \"latitude\": 53.8}'", line: 6,
                    expected: nil),
                .init(text: "echo done \\\n    again", line: 8, expected: nil),
            ])
        #expect(
            blocks[1].commands == [
                .init(
                    text:
                        "# a comment line\nsvc-supervisor routes   # every route\nmake build && \\\n    svc-supervisor reload",
                    line: 15, expected: nil, isScript: true)
            ])
    }

    @Test func onlyTheFourReasons_skipABlock() throws {
        for reason in [
            "needs a cluster", "needs systemd as PID 1", "runs the test suite itself", "long: run by make bench",
        ] {
            let blocks = try DocBlock.blocks(in: "<!-- not run: \(reason) -->\n```sh\nmake bench\n```\n", page: "p.md")
            #expect(blocks.first?.skip?.description == reason)
            #expect(blocks.first?.commands == [])
        }
        for reason in ["slow", "long: run by make", "needs a cluster, and more", "Needs a cluster"] {
            #expect(throws: DocBlockProblem.self, "\(reason)") {
                try DocBlock.blocks(in: "<!-- not run: \(reason) -->\n```sh\nmake bench\n```\n", page: "p.md")
            }
        }
        #expect(throws: DocBlockProblem.self) {
            try DocBlock.blocks(in: "<!-- not run because slow -->\n```sh\nls\n```\n", page: "p.md")
        }
        // A mark inside the block would be copied with it.
        #expect(throws: DocBlockProblem.self) {
            try DocBlock.blocks(in: "```sh\n# not run: needs a cluster\nls\n```\n", page: "p.md")
        }
        // A mark applies to the block right after it only.
        let two = try DocBlock.blocks(
            in: "<!-- not run: needs a cluster -->\n```sh\nls\n```\n\n```sh\nls\n```\n", page: "p.md")
        #expect(two.map { $0.skip == nil } == [false, true])
        #expect(throws: DocBlockProblem.self) { try DocBlock.blocks(in: "```sh\nls\n", page: "p.md") }
    }

    @Test(arguments: [
        ("identity  ready  4242  3s", "identity  ready  …", true),
        ("identity  ready  4242  3s", "identity  ready  …  3s", true),
        ("identity  failed  4242", "identity  ready  …", false),
        ("ok: 5 services", "ok: 5 services", true),
        ("ok: 5 services extra", "ok: 5 services", false),
        ("token …", "token …", true),
        ("abc", "…b…", true),
        ("abc", "…d…", false),
        ("NAME      STATE  PID", "NAME  STATE    PID", true),
        ("NAME STATE", "NAMESTATE", false),
    ])
    func outputPatterns_matchWithEllipsisAsAnyText(line: String, pattern: String, matches: Bool) {
        #expect(OutputPattern.matches(line, pattern) == matches)
    }

    @Test func everyPage_parses_andTheDocsHaveBlocksToRun() {
        let (blocks, problems) = Self.allBlocks()
        for problem in problems { Issue.record("\(problem)") }
        // A reshaped page set that runs nothing must fail here, not pass with nothing run.
        #expect(blocks.filter { $0.skip == nil }.count >= 6, "\(blocks.map(\.location))")
        #expect(blocks.contains { $0.page == "README.md" })
    }

    // MARK: The run

    @Test func everyBlock_runsAsWritten_againstALiveSuite() async throws {
        let (blocks, problems) = Self.allBlocks()
        for problem in problems { Issue.record("\(problem)") }
        let skipped = blocks.filter { $0.skip != nil }
        print("docs: \(skipped.count) blocks not run:")
        for block in skipped { print("  \(block.location): \(block.skip!)") }
        var ran = 0
        for page in Self.pages() {
            let runnable = blocks.filter { $0.page == page && $0.skip == nil }
            guard !runnable.isEmpty else { continue }
            let suite = try SupervisedSuite(manifest: Self.manifest, services: Self.services)
            try await suite.up()
            defer { suite.down() }
            #expect(await suite.waitUntilAllReady(), "\(page): the suite did not become ready")
            for block in runnable {
                for failure in try Self.run(block, against: suite) { Issue.record(Comment(rawValue: failure)) }
                ran += block.commands.count
            }
        }
        print("docs: ran \(ran) commands")
    }

    /// The suite the docs speak of: all five verticals, fast to start.
    static let services = ["identity", "clinics", "notifications", "records", "appointments"]

    /// The test suite's manifest with records, in deploy/suite.toml's order (before appointments),
    /// and identity logging at `info` as under `make run` (test daemons log warnings only).
    static let manifest = SupervisedSuite.referenceManifest
        .replacing(
            "[services.appointments]",
            with:
                "[services.records]\nexecutable = \"svc-records\"\ndepends_on = [\"identity\", \"clinics\"]\n[services.appointments]"
        )
        .replacing(
            #"env = { IDENTITY_PWHASH_OPSLIMIT = "1","#,
            with: #"env = { VERTICALS_LOG_LEVEL = "info", IDENTITY_PWHASH_OPSLIMIT = "1","#)

    /// Runs `block` in one `bash` (so a variable one command sets serves the next), each command
    /// between markers, and gives every way it differs from the page.
    static func run(_ block: DocBlock, against suite: SupervisedSuite) throws -> [String] {
        let work = suite.directory.file("work")
        let home = suite.directory.file("home")
        for folder in [work, home, home + "/.cache", home + "/.local/state"] { mkdir(folder, 0o700) }
        // `svc-supervisor check` and the exports read deploy/: a copy, so that nothing writes into the checkout.
        var script = "exec 2>&1\ncd '\(work)'\nrm -rf deploy && cp -R '\(packageRoot)/deploy' deploy\n"
        for (index, command) in block.commands.enumerated() {
            // A script block runs under `set -e` in a subshell, saying which command failed.
            let body =
                command.isScript
                ? "(\nset -e\ntrap 'printf \"failed: %s\\n\" \"$BASH_COMMAND\"' ERR\n\(command.text)\n)" : command.text
            script += "printf '\\n@@doc \(index) begin@@\\n'\n{\n\(body)\n} <'\(suite.directory.file("stdin"))'\n"
            script += "printf '\\n@@doc \(index) end %d@@\\n' \"$?\"\n"
        }
        let input = fopen(suite.directory.file("stdin"), "w")
        fputs(String(repeating: "operator-password-1\n", count: 4), input)
        fclose(input)
        // timeout(1) puts the script in a process group of its own and ends the whole group at the
        // bound, so a documented command that never returns leaves nothing running behind it.
        let result = try runCommand(
            "/usr/bin/timeout", ["--kill-after=5", "110", "/bin/bash", "-c", script],
            environment: [
                "PATH": "\(DaemonProcess.productsDirectory):/usr/local/bin:/usr/bin:/bin",
                "VERTICALS_RUN_DIR": suite.run, "HOME": home, "XDG_STATE_HOME": home + "/.local/state",
                "XDG_CACHE_HOME": home + "/.cache", "LANG": "C.UTF-8", "COLUMNS": "160",
            ],
            in: suite.directory, timeout: .seconds(120))
        return failures(
            of: block, output: result.standardOutput, timedOut: result.status == 124 || result.status == 137)
    }

    /// How the captured `output` of `block`'s script differs from the page.
    static func failures(of block: DocBlock, output: String, timedOut: Bool) -> [String] {
        var failures: [String] = []
        var rest = Substring(output)
        for (index, command) in block.commands.enumerated() {
            let where_ = "\(block.page):\(command.line): " + (command.isScript ? "the block" : "`\(command.text)`")
            guard let begin = rest.range(of: "\n@@doc \(index) begin@@\n") else {
                failures.append("\(where_) never ran")
                break
            }
            rest = rest[begin.upperBound...]
            guard let end = rest.range(of: "\n@@doc \(index) end ") else {
                failures.append(
                    "\(where_) did not finish within the block's 110 s\(timedOut ? " (killed)" : ""):\n\(rest.suffix(800))"
                )
                break
            }
            let printed = String(rest[..<end.lowerBound])
            rest = rest[end.upperBound...]
            let status = rest.prefix { $0.isNumber }
            if status != "0" {
                failures.append("\(where_) exited \(status):\n\(printed.suffix(800))")
                continue
            }
            if let expected = command.expected {
                var lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                while lines.last?.isEmpty == true { lines.removeLast() }
                if let difference = OutputPattern.difference(lines, expected) {
                    failures.append(
                        "\(where_) printed other than the page shows: \(difference)\n\(printed.suffix(800))")
                }
            }
        }
        return failures
    }
}
