#if canImport(Glibc)
import Glibc
#endif

// sd_notify messages from the children: readiness, status text, watchdog pings.
extension SupervisorEngine {
    func received(_ message: NotifyMessage) {
        if let (unit, upgrade) = upgradeSender(of: message) {
            upgradeNotified(unit, upgrade, message)
            return
        }
        guard let unit = sender(of: message) else {
            logger.debug("notify message from pid \(message.senderPID ?? 0), no service of ours: ignored")
            return
        }
        for (key, value) in message.assignments {
            switch key {
            case "READY" where value == "1":
                becameReady(unit)
            case "STATUS" where unit.upgrade == nil:  // an upgrade's own text says more meanwhile
                unit.statusText = value
            case "WATCHDOG" where value == "1":
                armWatchdog(unit)
            case "STOPPING" where value == "1":
                // The service is leaving on its own; its exit is judged by the restart policy.
                unit.watchdog.stop()
                // No more liveness checks: one now would wait in the held socket's backlog and
                // start the service again as soon as it is gone (its idle exit).
                unit.livenessTimer.stop()
                if unit.state != .stopping { unit.statusText = "stopping on its own" }
            case "MAINPID":
                if let pid = Int32(value), pid != unit.pid {
                    unit.log.note("reports MAINPID=\(pid); the supervisor keeps watching pid \(unit.pid ?? 0)")
                }
            default:
                break
            }
        }
    }

    /// The service a datagram comes from: the one whose main process sent it, or whose process
    /// group the sender is in (a helper such as `systemd-notify`).
    ///
    /// `systemd-notify` often exits before its datagram is read, so its group cannot be looked
    /// up any more; then a `MAINPID=` naming one of our main processes decides. Only local
    /// processes that can reach `<run>/notify.sock` can send, as with systemd's `NotifyAccess=all`.
    private func sender(of message: NotifyMessage) -> ServiceUnit? {
        guard let sender = message.senderPID, sender > 0 else { return nil }
        let running = units.values.filter { $0.pid != nil }
        if let unit = running.first(where: { $0.pid == sender }) { return unit }
        let group = getpgid(sender)
        if group > 0, let unit = running.first(where: { $0.pid == group }) { return unit }
        if group < 0, let claimed = message["MAINPID"].flatMap(Int32.init),
            let unit = running.first(where: { $0.pid == claimed })
        {
            return unit
        }
        return nil
    }
}
