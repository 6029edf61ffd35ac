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
        #expect(problem.code == .syntax)
        #expect(problem.detail("line") == "3" && problem.detail("column") != nil, "\(problem.details)")
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
        #expect(problem.code == .syntax)
        #expect(problem.detail("line") == "\(line)", "\(problem.details)")
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
        #expect(problem.code == .unknownKey && problem.detail("key") == "dependson")
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
        #expect(problem.code == .unknownKey)
        #expect(problem.message.hasSuffix("did you mean '\(suggestion)'?"), "\(problem.message)")
    }

    @Test func unknownKey_inANestedTable_isNamedWithItsTable() throws {
        let problems = ManifestFixture.problems(
            "[services.one]\nexecutable = \"true\"\nbackoff = { initial = \"1s\", maximum = \"5s\" }\n")
        let problem = try #require(problems.only(service: "one", key: "backoff.maximum"))
        #expect(problem.code == .unknownKey)
    }

    @Test func unknownTopLevelKey_isReported() throws {
        let problems = ManifestFixture.problems(
            "[service.one]\nexecutable = \"true\"\n[services.two]\nexecutable = \"true\"\n")
        let problem = try #require(problems.only(service: nil, key: "service"))
        #expect(problem.code == .unknownKey)
    }

    @Test(arguments: [
        ("restart = 1", "restart", ManifestError.Code.wrongType),
        ("restart = \"sometimes\"", "restart", .invalidValue),
        ("readiness = \"notfy\"", "readiness", .invalidValue),
        ("args = \"--fast\"", "args", .wrongType),
        ("args = [\"a\", 2]", "args", .wrongType),
        ("env = { PORT = 80 }", "env.PORT", .wrongType),
        ("env = { \"1X\" = \"a\" }", "env.1X", .invalidValue),
        ("env = { LISTEN_FDS = \"1\" }", "env.LISTEN_FDS", .invalidValue),
        ("ready_timeout = 10", "ready_timeout", .wrongType),
        ("stop_timeout = \"10 seconds\"", "stop_timeout", .invalidValue),
        ("watchdog = \"0s\"", "watchdog", .invalidValue),
        ("backoff = { multiplier = 0.5 }", "backoff.multiplier", .invalidValue),
        ("backoff = { initial = \"10s\", max = \"1s\" }", "backoff.max", .invalidValue),
        ("backoff = \"fast\"", "backoff", .wrongType),
        ("budget = { restarts = -1 }", "budget.restarts", .invalidValue),
        ("stop_signal = \"SIGFOO\"", "stop_signal", .invalidValue),
        ("stop_signal = \"SIGSTOP\"", "stop_signal", .invalidValue),
        ("stop_signal = 99", "stop_signal", .invalidValue),
        ("log_max_bytes = \"10 lots\"", "log_max_bytes", .invalidValue),
        ("log_max_bytes = 0", "log_max_bytes", .invalidValue),
        ("socket = \"yes\"", "socket", .wrongType),
        ("executable = \"\"", "executable", .invalidValue),
    ])
    func wrongTypeOrValue_namesTheKey_andWhetherTheTypeOrTheValueIsWrong(
        line: String, key: String, code: ManifestError.Code
    ) throws {
        let text =
            line.hasPrefix("executable")
            ? "[services.one]\n\(line)\n" : "[services.one]\nexecutable = \"true\"\n\(line)\n"
        let problem = try #require(ManifestFixture.problems(text).only(service: "one", key: key))
        #expect(problem.code == code, "\(problem)")
    }

    @Test func missingExecutableKey_isReported() throws {
        let problem = try #require(
            ManifestFixture.problems("[services.one]\nargs = []\n").only(service: "one", key: "executable"))
        #expect(problem.code == .missing)
    }

    @Test func executableNotFound_saysWhereItLooked() throws {
        let problems = ManifestFixture.parse("[services.one]\nexecutable = \"svc-nothing\"\n", bin: "/opt/vt/bin").1
        let problem = try #require(problems.only(service: "one", key: "executable"))
        #expect(problem.code == .badExecutable && problem.detail("path") == "/opt/vt/bin/svc-nothing")
        #expect(problem.message.contains("beside svc-supervisor"), "the message says where a bare name is looked up")
    }

    @Test func executableWithoutExecuteBit_isReported() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("tool")
        let fd = creat(path, 0o644)
        #expect(fd >= 0)
        close(fd)
        let problems = ManifestFixture.parse("[services.one]\nexecutable = \"./tool\"\n", base: directory.path).1
        let problem = try #require(problems.only(service: "one", key: "executable"))
        #expect(problem.code == .badExecutable && problem.detail("path") == path)
    }

    @Test func executableThatIsAFolder_isReported() throws {
        let problem = try #require(
            ManifestFixture.problems("[services.one]\nexecutable = \"/tmp\"\n").only(service: "one", key: "executable"))
        #expect(problem.code == .badExecutable && problem.detail("path") == "/tmp")
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
        #expect(duplicate.key == nil && duplicate.code == .duplicate)
        #expect(duplicate.details.filter { $0.key == "line" }.map(\.value) == ["1", "8"], "\(duplicate.details)")
        #expect(problems.contains { $0.service == "two" && $0.key == "depends_on" })
        #expect(manifest.services.map(\.name) == ["one", "two"])
    }

    @Test func unknownDependency_suggestsAKnownService() throws {
        let problems = ManifestFixture.problems(ManifestFixture.graph(["ledger": [], "catalog": ["ledgr"]]))
        let problem = try #require(problems.only(service: "catalog", key: "depends_on"))
        #expect(problem.code == .unknownDependency && problem.detail("dependency") == "ledgr")
        #expect(problem.message.hasSuffix("did you mean \"ledger\"?"), "\(problem.message)")
    }

    @Test func selfDependency_isReported() throws {
        let problems = ManifestFixture.problems(ManifestFixture.graph(["loop": ["loop"]]))
        let problem = try #require(problems.only(service: "loop", key: "depends_on"))
        #expect(problem.code == .dependencyCycle && problem.detail("dependency") == "loop")
    }

    @Test func cycleOfTwo_isNamedFromItsFirstService() throws {
        let (manifest, problems) = ManifestFixture.parse(
            ManifestFixture.graph(["ledger": ["catalog"], "catalog": ["ledger"]]))
        let problem = try #require(problems.only(service: "ledger", key: "depends_on"))
        #expect(problem.code == .dependencyCycle && problem.detail("cycle") == "ledger -> catalog -> ledger")
        #expect(throws: ManifestError.self) { try manifest.startOrder() }
    }

    @Test func cycleOfThree_besideAHealthyService_isNamedOnce() throws {
        let problems = ManifestFixture.problems(
            ManifestFixture.graph(["base": [], "c": ["a"], "a": ["b", "base"], "b": ["c"]]))
        let problem = try #require(problems.only(service: "c", key: "depends_on"))
        #expect(problem.code == .dependencyCycle && problem.detail("cycle") == "c -> a -> b -> c")
    }

    @Test func twoSeparateCycles_areBothNamed() {
        let problems = ManifestFixture.problems(
            ManifestFixture.graph(["a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]]))
        let cycles = problems.filter { $0.code == .dependencyCycle }.compactMap { $0.detail("cycle") }
        #expect(cycles.sorted() == ["a -> b -> a", "c -> d -> c"], "\(problems)")
    }

    @Test(arguments: ["Ledger", "1st", "my_service", String(repeating: "a", count: 33)])
    func invalidName_isReported(name: String) throws {
        let problems = ManifestFixture.problems("[services.\"\(name)\"]\nexecutable = \"true\"\n")
        let problem = try #require(problems.only(service: name, key: nil))
        #expect(problem.code == .invalidName && problem.detail("service") == name)
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
        #expect(problem.code == .invalidName && problem.detail("path")?.utf8.count == 108)
    }

    @Test func emptyManifest_saysToAddServices() throws {
        let problem = try #require(ManifestFixture.problems("# nothing yet\n").only(service: nil, key: "services"))
        #expect(problem.code == .missing)
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
        #expect(problem.code == .unreadable && problem.detail("path") == "/nonexistent/suite.toml")
    }
}
