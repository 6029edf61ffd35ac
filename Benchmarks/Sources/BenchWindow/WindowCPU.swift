#if canImport(Glibc)
import Glibc
#endif

/// The CPU a throughput client's counting window costs, at both ends: the server's (its
/// `/proc/PID/stat`, all threads) and the client's own (`getrusage(RUSAGE_SELF)`), read as the
/// window opens and again as it closes, so that neither start-up, warm-up nor wind-down counts.
///
/// The bench names the server in the client's environment (``serverVariable``); a client run
/// without it reads nothing and prints its line as before.
public struct WindowCPU: Sendable {
    /// The environment variable that names the server's pid.
    public static let serverVariable = "VT_BENCH_SERVER_PID"

    private let server: Int32
    private let serverAtOpen: Double
    private let clientAtOpen: Double

    /// Opens the window now, or returns nil when the environment names no server.
    public static func open() -> WindowCPU? {
        guard let text = getenv(serverVariable), let server = Int32(String(cString: text)) else { return nil }
        return WindowCPU(
            server: server, serverAtOpen: CPUTime.seconds(of: server) ?? 0, clientAtOpen: CPUTime.ownSeconds())
    }

    /// Closes the window now: ` server_cpu=S client_cpu=S`, the seconds each spent since
    /// ``open()``, to end the client's `requests=N seconds=S` line.
    public func close() -> String {
        let client = CPUTime.ownSeconds() - clientAtOpen
        let server = (CPUTime.seconds(of: server) ?? serverAtOpen) - serverAtOpen
        return " server_cpu=\(server) client_cpu=\(client)"
    }
}

/// CPU seconds (user + system) a process has consumed.
public enum CPUTime {
    /// `pid`'s, all threads, from `/proc/PID/stat` (`utime` + `stime`, in clock ticks), or nil
    /// when the process is gone.
    public static func seconds(of pid: Int32) -> Double? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let read = fread(&buffer, 1, buffer.count, file)
        guard read > 0 else { return nil }
        let stat = String(decoding: buffer[..<read], as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// This process's, all threads (`getrusage(RUSAGE_SELF)`).
    public static func ownSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
