#if canImport(Glibc)
import Glibc
#endif

// sd_notify messages from the children: readiness, status text, watchdog pings.
extension SupervisorEngine {
    /// Acts on a datagram of the notify socket, on the loop thread, when it comes from a unit's
    /// own process: see ``sender(of:)``. Its values arrive printable (``NotifyMessage``).
    func received(_ message: NotifyMessage) {
        if let (unit, upgrade) = upgradeSender(of: message) {
            upgradeNotified(unit, upgrade, message)
            return
        }
        guard let unit = sender(of: message) else {
            let uid = message.senderUID.map(String.init) ?? "?"
            logger.debug(
                "notify message from pid \(message.senderPID ?? 0) uid \(uid), not the main process of a service of ours: ignored"
            )
            return
        }
        for (key, value) in message.assignments {
            switch key {
            case "READY" where value == "1":
                becameReady(unit)
            case "STATUS":
                transition(unit) { $0.statusSaid(value) }
            case "WATCHDOG" where value == "1":
                transition(unit) { $0.watchdogPinged() }
            case "STOPPING" where value == "1":
                // The service is leaving on its own; its exit is judged by the restart policy. No
                // more watchdog, nor liveness checks: one now would wait in the held socket's
                // backlog and start the service again as soon as it is gone (its idle exit).
                transition(unit) { $0.stoppingOnItsOwn() }
            case "MAINPID":
                if let pid = Int32(value), pid != unit.pid {
                    unit.log.note("reports MAINPID=\(pid); the supervisor keeps watching pid \(unit.pid ?? 0)")
                }
            default:
                break
            }
        }
    }

    /// The service a datagram comes from: the one whose main process the kernel names as its
    /// sender (`SCM_CREDENTIALS`), running as that service's uid. systemd's `NotifyAccess=main`,
    /// its default for `Type=notify` and what the exported units get, so a service behaves the
    /// same under either host: a helper process of the service (`systemd-notify` run from a
    /// script without root) is not its main process, and is ignored under systemd too.
    ///
    /// Nothing the datagram says chooses the service: `MAINPID=` is never believed (any local
    /// user can reach the 0666 socket, send a datagram naming another service's pid and exit
    /// before it is read), nor is the process group of a sender that may be gone by then. A
    /// datagram without credentials, from another uid, or from a pid that is not a unit's main
    /// process is dropped.
    func sender(of message: NotifyMessage) -> ServiceUnit? {
        guard let pid = message.senderPID, pid > 0, let uid = message.senderUID else { return nil }
        return units.values.first { $0.pid == pid && $0.uid == uid }
    }
}
