import Glibc
import Testing
import VerticalsSupervisor
import VerticalsTesting
import VerticalsSharedTesting

/// Each kind of mistake is reported with the service and key it is about, and none hides another.
@Suite struct ManifestProblemTests {
    @Test func syntaxError_namesLineAndColumn() throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\nrestart = on-failure\n")
        let problem = try #require(problems.only(service: nil, key: nil))
        #expect(problem.message.hasPrefix("line 3, column "))
        #expect(problem.message.contains("not valid TOML"))
    }

    /// Found by fuzz-manifest: toml++ asserts (aborting svc-supervisor) on a key that starts with
    /// a character outside ASCII; the parser reports it as a syntax error before toml++ sees it.
    @Test(arguments: [
        ("[services.a]\nexecutable = \"x\"\n[\u{E9}]\n", 3), ("\u{FFFD} = 1\n", 1), ("[\u{FFFD}]\n", 1),
        ("[services.a]\nexecutable = \"x\"\nenv = { \u{E9} = \"1\" }\n", 3),
        ("[services.a]\nexecutable = \"x\"\n[+services.b]\n", 3), ("[[ =x]]\n", 1),
    ])
    func keyStartingOutsideASCII_isASyntaxErrorNotACrash(text: String, line: Int) throws {
        let problems = ManifestFixture.problems(text)
        let problem = try #require(problems.only(service: nil, key: nil))
        #expect(problem.message.hasPrefix("line \(line), column "))
        #expect(problem.message.contains("outside ASCII") || problem.message.contains("a table name starts with"))
    }

    @Test func nonASCIIInStringsAndComments_isStillAccepted() throws {
        let text = """
            # Caf\u{E9} menu \u{2014} comments may hold anything
            [services.caf]
            executable = "true"
            env = { GREETING = "h\u{E9}llo \\" \u{1F600}", NOTE = 'caf\u{E9}', LONG = \"\"\"
            multi \u{E9}
            line\"\"\" }
            """
        #expect(ManifestFixture.problems(text).isEmpty)
    }

    @Test func unknownKey_suggestsTheClosestKnownOne() throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\ndependson = []\n")
        let problem = try #require(problems.only(service: "one", key: "dependson"))
        #expect(problem.message == "unknown key 'dependson'; did you mean 'depends_on'?")
        #expect(problem.description == "services.one.dependson: unknown key 'dependson'; did you mean 'depends_on'?")
    }

    @Test(arguments: [
        ("depends-on = []", "depends-on", "depends_on"),
        ("timeout = \"1s\"", "timeout", "ready_timeout"),
        ("restrat = \"always\"", "restrat", "restart"),
    ])
    func unknownKey_typos_areMatched(line: String, key: String, suggestion: String) throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\n\(line)\n")
        let problem = try #require(problems.only(service: "one", key: key))
        #expect(problem.message.contains("did you mean '\(suggestion)'"))
    }

    @Test func unknownKey_inANestedTable_isNamedWithItsTable() throws {
        let problems = ManifestFixture.problems(
            "[services.one]\nexecutable = \"true\"\nbackoff = { initial = \"1s\", maximum = \"5s\" }\n")
        let problem = try #require(problems.only(service: "one", key: "backoff.maximum"))
        #expect(problem.message.contains("did you mean 'max'"))
    }

    @Test func unknownTopLevelKey_isReported() throws {
        let problems = ManifestFixture.problems(
            "[service.one]\nexecutable = \"true\"\n[services.two]\nexecutable = \"true\"\n")
        let problem = try #require(problems.only(service: nil, key: "service"))
        #expect(problem.message.contains("did you mean 'services'"))
    }

    @Test(arguments: [
        ("restart = 1", "restart", "must be a string"),
        ("restart = \"sometimes\"", "restart", "must be one of \"always\", \"on-failure\", \"never\""),
        ("readiness = \"notfy\"", "readiness", "did you mean \"notify\""),
        ("args = \"--fast\"", "args", "must be an array of strings"),
        ("args = [\"a\", 2]", "args", "item 2 is an integer"),
        ("env = { PORT = 80 }", "env.PORT", "must be a string"),
        ("env = { \"1X\" = \"a\" }", "env.1X", "not a variable name"),
        ("env = { LISTEN_FDS = \"1\" }", "env.LISTEN_FDS", "set by the supervisor"),
        ("ready_timeout = 10", "ready_timeout", "ready_timeout = \"10s\""),
        ("stop_timeout = \"10 seconds\"", "stop_timeout", "is not a duration"),
        ("watchdog = \"0s\"", "watchdog", "leave the key out"),
        ("backoff = { multiplier = 0.5 }", "backoff.multiplier", "at least 1"),
        ("backoff = { initial = \"10s\", max = \"1s\" }", "backoff.max", "shorter than backoff.initial"),
        ("backoff = \"fast\"", "backoff", "must be a table"),
        ("budget = { restarts = -1 }", "budget.restarts", "0 or more"),
        ("stop_signal = \"SIGFOO\"", "stop_signal", "not a signal name"),
        ("stop_signal = \"SIGSTOP\"", "stop_signal", "does not end a process"),
        ("stop_signal = 99", "stop_signal", "not a signal number"),
        ("log_max_bytes = \"10 lots\"", "log_max_bytes", "not a size"),
        ("log_max_bytes = 0", "log_max_bytes", "more than zero"),
        ("socket = \"yes\"", "socket", "must be a boolean"),
        ("executable = \"\"", "executable", "is empty"),
    ])
    func wrongTypeOrValue_namesTheKeyAndWhatItMustBe(line: String, key: String, excerpt: String) throws {
        let text =
            line.hasPrefix("executable")
            ? "[services.one]\n\(line)\n" : "[services.one]\nexecutable = \"true\"\n\(line)\n"
        let problem = try #require(ManifestFixture.problems(text).only(service: "one", key: key))
        #expect(problem.message.contains(excerpt), "\(problem.message)")
    }

    @Test func missingExecutableKey_isReported() throws {
        let problem = try #require(
            ManifestFixture.problems("[services.one]\nargs = []\n").only(service: "one", key: "executable"))
        #expect(problem.message.contains("missing"))
    }

    @Test func executableNotFound_saysWhereItLooked() throws {
        let problems = ManifestFixture.parse("[services.one]\nexecutable = \"svc-nothing\"\n", bin: "/opt/vt/bin").1
        let problem = try #require(problems.only(service: "one", key: "executable"))
        #expect(problem.message.contains("/opt/vt/bin/svc-nothing not found"))
        #expect(problem.message.contains("beside svc-supervisor"))
    }

    @Test func executableWithoutExecuteBit_isReported() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("tool")
        let fd = creat(path, 0o644)
        #expect(fd >= 0)
        close(fd)
        let problems = ManifestFixture.parse("[services.one]\nexecutable = \"./tool\"\n", base: directory.path).1
        let problem = try #require(problems.only(service: "one", key: "executable"))
        #expect(problem.message.contains("is not executable (mode 644)"))
    }

    @Test func executableThatIsAFolder_isReported() throws {
        let problem = try #require(
            ManifestFixture.problems("[services.one]\nexecutable = \"/tmp\"\n").only(service: "one", key: "executable"))
        #expect(problem.message.contains("not a regular file"))
    }

    @Test func duplicateService_isNamedWithItsLines_andTheRestIsStillChecked() throws {
        let (manifest, problems) = ManifestFixture.parse(
            """
            [services.one]
            executable = "true"

            [services.two]
            executable = "true"
            depends_on = ["three"]

            [services.one]
            executable = "true"
            [services.one.env]
            A = "b"
            """)
        #expect(problems.count == 2, "\(problems)")
        let duplicate = try #require(problems.first { $0.service == "one" })
        #expect(duplicate.key == nil)
        #expect(duplicate.message.contains("declared more than once (lines 1, 8)"))
        #expect(problems.contains { $0.service == "two" && $0.key == "depends_on" })
        #expect(manifest.services.map(\.name) == ["one", "two"])
    }

    @Test func unknownDependency_suggestsAKnownService() throws {
        let problems = ManifestFixture.problems(ManifestFixture.graph(["ledger": [], "catalog": ["ledgr"]]))
        let problem = try #require(problems.only(service: "catalog", key: "depends_on"))
        #expect(problem.message.contains("\"ledgr\", which is not a service"))
        #expect(problem.message.contains("did you mean \"ledger\""))
    }

    @Test func selfDependency_isReported() throws {
        let problems = ManifestFixture.problems(ManifestFixture.graph(["loop": ["loop"]]))
        let problem = try #require(problems.only(service: "loop", key: "depends_on"))
        #expect(problem.message.contains("cannot depend on itself"))
    }

    @Test func cycleOfTwo_isNamedFromItsFirstService() throws {
        let (manifest, problems) = ManifestFixture.parse(
            ManifestFixture.graph(["ledger": ["catalog"], "catalog": ["ledger"]]))
        let problem = try #require(problems.only(service: "ledger", key: "depends_on"))
        #expect(problem.message.contains("dependency cycle: ledger -> catalog -> ledger"))
        #expect(throws: ManifestError.self) { try manifest.startOrder() }
    }

    @Test func cycleOfThree_besideAHealthyService_isNamedOnce() throws {
        let problems = ManifestFixture.problems(
            ManifestFixture.graph(["base": [], "c": ["a"], "a": ["b", "base"], "b": ["c"]]))
        let problem = try #require(problems.only(service: "c", key: "depends_on"))
        #expect(problem.message.contains("dependency cycle: c -> a -> b -> c"))
    }

    @Test func twoSeparateCycles_areBothNamed() {
        let problems = ManifestFixture.problems(
            ManifestFixture.graph(["a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]]))
        #expect(problems.map(\.message).filter { $0.contains("cycle") }.count == 2)
        #expect(problems.contains { $0.message.contains("a -> b -> a") })
        #expect(problems.contains { $0.message.contains("c -> d -> c") })
    }

    @Test(arguments: [
        ("Ledger", "lowercase letter"), ("1st", "lowercase letter"), ("my_service", "found \"_\""),
        (String(repeating: "a", count: 33), "at most 32"),
    ])
    func invalidName_isReported(name: String, excerpt: String) throws {
        let problems = ManifestFixture.problems("[services.\"\(name)\"]\nexecutable = \"true\"\n")
        let problem = try #require(problems.only(service: name, key: nil))
        #expect(problem.message.contains(excerpt), "\(problem.message)")
    }

    @Test func longestValidName_isAccepted() {
        #expect(
            ManifestFixture.problems("[services.a\(String(repeating: "-9", count: 15))b]\nexecutable = \"true\"\n")
                == [])
    }

    @Test func socketPathOver107Bytes_isReported_andOneAtTheLimitIsNot() throws {
        let (manifest, _) = ManifestFixture.parse(ManifestFixture.graph(["abc": [], "abcd": []]))
        // "<dir>/abc.sock" is 107 bytes when the folder is 98: "/" + 97 characters.
        let directory = "/" + String(repeating: "d", count: 97)
        let problems = manifest.socketPathProblems(socketDirectory: directory)
        let problem = try #require(problems.only(service: "abcd", key: nil))
        #expect(problem.message.contains("is 108 bytes"))
    }

    @Test func emptyManifest_saysToAddServices() throws {
        let problem = try #require(ManifestFixture.problems("# nothing yet\n").only(service: nil, key: "services"))
        #expect(problem.message.contains("no services"))
    }

    @Test func problemInDefaults_isReportedOnce_underDefaults() throws {
        let problems = ManifestFixture.problems(
            "[defaults]\nrestart = \"sometimes\"\nretsart = 1\n" + ManifestFixture.graph(["a": [], "b": []]))
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.allSatisfy { $0.service == nil })
        #expect(Set(problems.compactMap(\.key)) == ["defaults.restart", "defaults.retsart"])
    }

    @Test func everyProblem_isReported_notJustTheFirst() {
        let problems = ManifestFixture.problems(
            """
            [services.Bad_Name]
            executable = "true"

            [services.worker]
            executable = "svc-missing"
            restart = "sometimes"
            ready_timeout = 5
            colour = "blue"
            depends_on = ["ghost", "worker"]
            """)
        let located = Set(problems.map { "\($0.service ?? "-").\($0.key ?? "-")" })
        #expect(
            located == [
                "Bad_Name.-", "worker.executable", "worker.restart", "worker.ready_timeout", "worker.colour",
                "worker.depends_on",
            ], "\(problems)")
        #expect(problems.filter { $0.key == "depends_on" }.count == 2)
    }

    @Test func unreadableFile_isAProblem_notACrash() throws {
        let (_, problems) = ManifestParser.load(path: "/nonexistent/suite.toml", binDirectory: "/bin")
        let problem = try #require(problems.only(service: nil, key: nil))
        #expect(problem.message.contains("cannot read the manifest"))
    }
}
