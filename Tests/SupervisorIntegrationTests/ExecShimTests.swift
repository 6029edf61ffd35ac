import Glibc
import Testing
import VerticalsTesting

/// vt-exec as a real process: each step it takes between fork and exec, seen from the program it execs.
@Suite(.blocking, .serialized) struct ExecShimTests {
    let directory = TemporaryDirectory()

    /// Runs `vt-exec OPTIONS -- /bin/sh -c SCRIPT` and returns what it printed.
    func shim(
        _ options: [String], script: String, environment: [String: String] = [:]
    ) throws -> CommandResult {
        try runCommand(
            "vt-exec", options + ["--", "/bin/sh", "-c", script], environment: environment, in: directory,
            timeout: .seconds(10))
    }

    @Test func listenPID_isThePidOfTheExecdProgram() throws {
        let result = try shim([], script: "echo $$ $LISTEN_PID", environment: ["LISTEN_FDS": "0"])
        #expect(result.status == 0, "\(result.standardError)")
        let pids = result.standardOutput.split(whereSeparator: \.isWhitespace)
        #expect(pids.count == 2 && pids[0] == pids[1], "\(result.standardOutput)")
    }

    @Test func watchdogPID_isSet_onlyWithWatchdogUsec() throws {
        let with = try shim([], script: "echo $$ $WATCHDOG_PID", environment: ["WATCHDOG_USEC": "5000000"])
        let words = with.standardOutput.split(whereSeparator: \.isWhitespace)
        #expect(words.count == 2 && words[0] == words[1], "\(with.standardOutput)")
        let without = try shim([], script: "echo \"${WATCHDOG_PID-unset} ${LISTEN_PID-unset}\"")
        #expect(without.standardOutput == "unset unset\n")
    }

    @Test func parentVariable_isNotPassedOn() throws {
        let result = try shim([], script: "echo ${VT_EXEC_PARENT-unset}", environment: ["VT_EXEC_PARENT": "1"])
        #expect(result.standardOutput == "unset\n")
    }

    @Test func fdsAboveTheListenFDs_areClosed() throws {
        // The outer shell opens fds 3…6, then execs vt-exec with one listening fd (3): only 0–3 reach the program.
        let script = """
            exec 3</dev/null 4</dev/null 5</dev/null 6</dev/null
            LISTEN_FDS=1 exec "$VT_EXEC" -- /bin/sh -c 'ls /proc/$$/fd'
            """
        let result = try runCommand(
            "/bin/sh", ["-c", script], environment: ["VT_EXEC": "\(DaemonProcess.productsDirectory)/vt-exec"],
            in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.split(separator: "\n").sorted() == ["0", "1", "2", "3"], "\(result.standardOutput)")
    }

    @Test func closeFdsFrom_overridesTheStart() throws {
        let script = """
            exec 3</dev/null 4</dev/null 5</dev/null
            exec "$VT_EXEC" --close-fds-from 5 -- /bin/sh -c 'ls /proc/$$/fd'
            """
        let result = try runCommand(
            "/bin/sh", ["-c", script], environment: ["VT_EXEC": "\(DaemonProcess.productsDirectory)/vt-exec"],
            in: directory)
        #expect(
            result.standardOutput.split(separator: "\n").sorted() == ["0", "1", "2", "3", "4"],
            "\(result.standardOutput)")
    }

    @Test func setsid_makesTheProgramLeaderOfItsSessionAndGroup() throws {
        // /proc/PID/stat: pid (comm) state ppid pgrp session …; comm is "sh", without spaces.
        let script = "read pid comm state ppid pgrp session rest < /proc/$$/stat; echo $$ $pgrp $session"
        let leader = try shim(["--setsid"], script: script)
        let fields = leader.standardOutput.split(whereSeparator: \.isWhitespace)
        #expect(fields.count == 3 && fields[0] == fields[1] && fields[0] == fields[2], "\(leader.standardOutput)")

        let plain = try shim([], script: script)
        let plainFields = plain.standardOutput.split(whereSeparator: \.isWhitespace)
        #expect(plainFields.count == 3 && plainFields[0] != plainFields[2], "\(plain.standardOutput)")
    }

    @Test func rlimit_isApplied_softAndHard() throws {
        let result = try shim(
            ["--rlimit", "NOFILE=123:456", "--rlimit", "core=0"], script: "ulimit -Sn; ulimit -Hn; ulimit -c")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "123\n456\n0\n")
    }

    @Test func rlimit_withOneValue_setsBoth() throws {
        let result = try shim(["--rlimit", "NOFILE=200"], script: "ulimit -Sn; ulimit -Hn")
        #expect(result.standardOutput == "200\n200\n")
    }

    @Test func nice_isApplied() throws {
        let result = try shim(
            ["--nice", "7"],
            script:
                "read pid comm s pp pg se tty tp fl mi cmi ma cma ut st cut cst pr ni rest < /proc/$$/stat; echo $ni")
        #expect(result.standardOutput == "7\n", "\(result.standardError)")
    }

    @Test func cgroup_receivesTheProgramsPid_inEveryGroupNamed() throws {
        // cgroup v1 has a hierarchy per controller: memory and cpu are two folders to join.
        let groups = [directory.file("memory-group"), directory.file("cpu-group")]
        for group in groups {
            mkdir(group, 0o755)
            let fd = creat("\(group)/cgroup.procs", 0o644)
            #expect(fd >= 0)
            close(fd)
        }
        let result = try shim(["--cgroup", groups[0], "--cgroup", groups[1]], script: "echo $$")
        #expect(result.status == 0, "\(result.standardError)")
        for group in groups {
            #expect(readFile("\(group)/cgroup.procs") == result.standardOutput)
        }
    }

    @Test func cgroup_thatCannotBeJoined_failsWithAMessage() throws {
        let result = try shim(["--cgroup", directory.file("no-such-group")], script: "echo ran")
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError.hasPrefix(
                "vt-exec: cgroup: cannot open \(directory.file("no-such-group"))/cgroup.procs"))
    }

    @Test func pdeathsig_killsTheProgram_whenItsParentDies() throws {
        let orphan = try orphanedSleep(options: ["--pdeathsig", "SIGKILL"])
        defer { if Self.isRunning(orphan) { kill(orphan, SIGKILL) } }
        #expect(eventually(timeout: .seconds(5)) { !Self.isRunning(orphan) }, "sleep \(orphan) outlived its parent")
    }

    @Test func withoutPdeathsig_theOrphanLivesOn() throws {
        // The control for the test above: what it sees is PR_SET_PDEATHSIG, nothing else.
        let orphan = try orphanedSleep(options: [])
        defer { kill(orphan, SIGKILL) }
        // Decided by a fact, not by how long we wait: the kernel queues a parent-death signal
        // while the parent exits, before its wait status can be collected, and `orphanedSleep`
        // has collected it. So a signal is pending now or never; one pending but not yet acted
        // on (the orphan not scheduled since, on a loaded machine) still shows in SigPnd/ShdPnd.
        #expect(Self.isRunning(orphan))
        let pending = Self.pendingSignals(orphan)
        #expect(
            pending == 0,
            "signals pending for the orphan (mask): \(pending.map { String($0, radix: 16) } ?? "unreadable")")
    }

    /// The signals pending for `pid`'s main thread and its whole process (SigPnd | ShdPnd), as a mask.
    static func pendingSignals(_ pid: pid_t) -> UInt64? {
        guard let status = readFile("/proc/\(pid)/status") else { return nil }
        var mask: UInt64 = 0
        for line in status.split(separator: "\n") where line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:") {
            guard let value = line.split(separator: "\t").last.flatMap({ UInt64($0, radix: 16) }) else { return nil }
            mask |= value
        }
        return mask
    }

    /// The pid of a `sleep 30` that a shell started through vt-exec with `options`, waited
    /// for until it had exec'd, and then left by exiting.
    func orphanedSleep(options: [String]) throws -> pid_t {
        let script = """
            "$VT_EXEC" $OPTIONS --parent $$ -- /bin/sleep 30 &
            child=$!
            for _ in $(seq 1 400); do [ "$(cat /proc/$child/comm 2>/dev/null)" = sleep ] && break; sleep 0.01; done
            echo $child
            """
        let result = try runCommand(
            "/bin/sh", ["-c", script],
            environment: [
                "VT_EXEC": "\(DaemonProcess.productsDirectory)/vt-exec", "OPTIONS": options.joined(separator: " "),
            ],
            in: directory)
        return try #require(result.standardOutput.split(whereSeparator: \.isWhitespace).first.flatMap { pid_t($0) })
    }

    @Test func pdeathsig_whenTheParentIsAlreadyGone_exitsAtOnce() throws {
        // Parent 1 is not this process's parent: to vt-exec, the parent it was told of is gone.
        let result = try shim(["--pdeathsig", "TERM", "--parent", "1"], script: "echo ran")
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "vt-exec: pdeathsig: parent 1 is already gone\n")
    }

    @Test func pdeathsig_withTheRightParent_runsTheProgram() throws {
        let result = try runCommand(
            "/bin/sh", ["-c", "\"$VT_EXEC\" --pdeathsig TERM --parent $$ -- /bin/echo ran; true"],
            environment: ["VT_EXEC": "\(DaemonProcess.productsDirectory)/vt-exec"], in: directory)
        #expect(result.standardOutput == "ran\n", "\(result.standardError)")
    }

    @Test func missingProgram_exits127_withAMessage() throws {
        let result = try runCommand("vt-exec", ["--", "/no/such/program"], in: directory)
        #expect(result.status == 127)
        #expect(result.standardError == "vt-exec: exec /no/such/program: No such file or directory\n")
    }

    @Test func bareProgramName_isLookedUpInPath() throws {
        let result = try runCommand("vt-exec", ["--", "echo", "found"], in: directory)
        #expect(result.status == 0)
        #expect(result.standardOutput == "found\n")
    }

    @Test(arguments: [
        ["--bogus", "x", "--", "true"], ["--rlimit", "FILES=3", "--", "true"], ["--setsid"], ["--nice"],
    ])
    func malformedCommandLine_exits64_withUsage(arguments: [String]) throws {
        let result = try runCommand("vt-exec", arguments, in: directory)
        #expect(result.status == 64)
        #expect(result.standardError.contains("usage: vt-exec"))
    }

    /// Whether `pid` is alive and not a zombie.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}
