import VerticalsSupervisor

extension ServiceSpec {
    /// A shell script service that sends `text` to `NOTIFY_SOCKET` from its own main process, then
    /// runs `then` (`sh -c`, in that same process). The supervisor credits a datagram only to a
    /// service's main process (systemd's `NotifyAccess=main`), so the script execs a small Python
    /// sender rather than running `systemd-notify` as a child: that speaks for the script only as
    /// root (`--pid=$$` sets the credentials' pid, which needs `CAP_SYS_ADMIN`). `then` must not
    /// hold a single quote; `text` may hold anything but NUL (it travels in the environment).
    static func notifyingScript(_ name: String, sends text: String, then: String) -> ServiceSpec {
        let sender = """
            import os, socket, sys
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(sys.argv[1].encode(), os.environ["NOTIFY_SOCKET"])
            os.execv("/bin/sh", ["sh", "-c", sys.argv[2]])
            """
        var spec = ServiceSpec.script(
            name, "exec /usr/bin/python3 -c '\(sender)' \"$VT_NOTIFY_TEXT\" '\(then)'", readiness: .notify)
        spec.environment["VT_NOTIFY_TEXT"] = text
        return spec
    }
}
