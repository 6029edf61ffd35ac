import VerticalsEventLoop

/// Descriptors: the daemon's connection limits must fit in what it may open, and an accept that
/// fails for want of one is said where an operator looks (the log, rate-limited, and
/// `verticals_accept_descriptor_shortages_total` in `daemon.metrics`), not only waited out.
///
/// ``start()`` raises the soft `RLIMIT_NOFILE` to the hard one (``DescriptorLimit``); a service
/// manager's soft limit (systemd's 1,024) would otherwise be met long before
/// `VERTICALS_MAX_CONNECTIONS`. Kubernetes sets no descriptor limit per pod, so this check, at
/// every start, is what holds there; `svc-supervisor check` says the same of a manifest.
extension ServiceHost {
    /// Warns when every connection the limits admit, every TLS peer they let wait and the
    /// daemon's own descriptors (``ConnectionLimits/reservedDescriptors``) need more than the
    /// process may open.
    func checkDescriptorBudget(tls: Bool) {
        guard let descriptorLimit else { return }
        let limits = configuration.limits
        let needed = limits.descriptorsNeeded(tls: tls)
        guard needed > descriptorLimit else { return }
        let startups = tls ? " + VERTICALS_MAX_STARTUPS' full (\(limits.startups.full))" : ""
        let message =
            "the connection limits do not fit in the descriptors this process may open (RLIMIT_NOFILE, \(descriptorLimit)): "
            + "VERTICALS_MAX_CONNECTIONS (\(limits.maxConnections))\(startups) + \(ConnectionLimits.reservedDescriptors) "
            + "of its own need \(needed); raise limits.open_files (LimitNOFILE=) or lower the limits, "
            + "or connections will be refused for want of a descriptor"
        logger.warning("\(message)")
    }

    /// The listener could not accept a peer: a descriptor shortage is counted and logged (one
    /// line a second at most, however many peers meet it); a failed TLS handshake, or another
    /// failure, is logged.
    func acceptFailed(_ error: EventLoopError) {
        guard error.isDescriptorShortage else {
            logger.notice(
                "\(error.kind == .tls ? "refused a TLS connection" : "could not accept a connection"): \(error)")
            return
        }
        metrics.acceptDescriptorShortages.increment()
        guard let unlogged = census.refusalToLog() else { return }
        let since = unlogged > 0 ? " (and \(unlogged) more refused for a limit since the last such line)" : ""
        let message =
            "could not accept a connection for want of a descriptor (\(error))\(since): the peer was closed; "
            + "raise limits.open_files or lower VERTICALS_MAX_CONNECTIONS"
        logger.warning("\(message)")
    }
}
