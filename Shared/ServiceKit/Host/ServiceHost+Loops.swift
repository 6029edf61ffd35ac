import Logging
import Synchronization
import VerticalsEventLoop
import VerticalsObservability

/// Serving on several event loops (``HostConfiguration/loops``, `VERTICALS_LOOPS`).
///
/// The accepting host (the one a daemon makes, on its own loop) makes one shard per extra loop:
/// another `ServiceHost` on that loop, sharing the router, the operation table, the metrics,
/// the traces and the ``HostCensus``. Its listener hands each accepted connection to the loop
/// with the fewest open (``StreamListener/start(across:onHandOffError:_:)``), whose host admits
/// and serves it for its life exactly as a one-loop host would: the per-connection code does
/// not know there is more than one loop, and handlers run on their connection's loop.
///
/// What stays exact across loops: the connection limit (the census's compare-and-swap); the
/// in-flight limit and deadlines (per connection, on its loop); drain (the accepting host tells
/// every shard to drain, and its stop returns once all are done; its drain timer ends them all);
/// idle exit (one ``IdleExit``, counted atomically by every loop); metrics (one registry, the
/// gauges summed over the loops when read); READY=1, STOPPING=1 and the watchdog (the accepting
/// host only). A loop with no connection arms no timer: an idle daemon wakes on none of them.
extension ServiceHost {
    /// Starts one loop and one shard per loop past the first (before listening; off the loop).
    /// `shards` is written here once and only read afterwards.
    func startShards() throws {
        guard primary == nil, shards.isEmpty, configuration.loops > 1 else { return }
        var made: [ServiceHost] = []
        do {
            for index in 1..<configuration.loops {
                let loop = try EventLoop(name: "\(configuration.name)-\(index)")
                var logger = self.logger
                logger[metadataKey: "loop"] = "\(index)"
                made.append(
                    ServiceHost(
                        configuration: configuration, router: router, metrics: metrics, traces: traces, loop: loop,
                        logger: logger, primary: self, census: census, lane: index))
            }
        } catch {
            for shard in made { shard.loop.shutdown() }
            throw error
        }
        shards = made
        loops?.set([loop] + made.map(\.loop))
        logger.info("serving connections on \(configuration.loops) event loops")
    }

    /// Stops the shards' loops, once they drained (or the host never started).
    func stopShardLoops() {
        for shard in shards { shard.loop.shutdown() }
    }

    /// Starts accepting on `listener`: every connection here with one loop, else each on the
    /// loop with the fewest open connections (ties in turn, starting with this loop: a daemon's
    /// first connection, often the one that started it on demand, is served where it was
    /// accepted, with no hand-off to a loop that has not run yet).
    func listen(_ listener: StreamListener) {
        guard !shards.isEmpty else {
            listener.start { [weak self] connection in
                guard let self else { return connection.close() }
                openHere.add(1, ordering: .relaxed)
                accepted(connection)
            }
            return
        }
        let hosts = [self] + shards
        var turn = 0
        let pick: () -> EventLoop = {
            defer { turn &+= 1 }
            var best = hosts[turn % hosts.count]
            var fewest = best.openHere.load(ordering: .relaxed)
            for offset in 1..<hosts.count {
                let host = hosts[(turn + offset) % hosts.count]
                let open = host.openHere.load(ordering: .relaxed)
                if open < fewest { (best, fewest) = (host, open) }
            }
            // Counted now, not when the loop takes it: a burst of peers is spread, not piled on one.
            best.openHere.add(1, ordering: .relaxed)
            return best.loop
        }
        listener.start(
            across: pick,
            onHandOffError: { [weak self] loop, error in
                guard let host = self?.host(on: loop) else { return }
                host.openHere.subtract(1, ordering: .relaxed)
                // Counted and rate-limited like the listener's own (thread-safe: metrics, census, logger).
                if error.isDescriptorShortage {
                    host.acceptFailed(error)
                } else {
                    host.logger.notice("refused a connection: \(error)")
                }
            }
        ) { [weak self] connection in
            guard let self else { return connection.close() }
            host(on: connection.loop).accepted(connection)
        }
    }

    /// This host or the shard that serves `loop`.
    func host(on loop: EventLoop) -> ServiceHost {
        shards.first { $0.loop === loop } ?? self
    }

    /// Tells every shard to drain (the accepting host began to); its stop waits for them all.
    func drainShards() {
        guard primary == nil else { return }
        let told = shards.filter { shard in shard.loop.execute { shard.beginDrain() } }
        stopMachine.shardsToldToDrain(told.count)
    }

    /// The drain timeout passed: every shard abandons what it still serves.
    func timeOutShards() {
        for shard in shards { _ = shard.loop.execute { shard.timeOutDrain() } }
    }

    /// The idle exit is due: each shard closes its connections that have nothing in flight and
    /// nothing arriving with the idle error (retryable, unread), then drains the rest (a request
    /// that began on another loop after the host found itself idle is answered, not cut).
    func closeShardsForIdleExit(_ idle: Duration) {
        for shard in shards {
            _ = shard.loop.execute {
                for server in shard.connections
                where server.inFlightCount == 0 && server.connection.bufferedInboundByteCount == 0 {
                    server.close(ServerConnection.idleError(idle))
                }
            }
        }
    }

    /// Requests in flight, work queued and request counts, summed over every loop (each host read on its loop).
    func sampleLoad() async -> HostMetrics.LoadSample {
        var load = HostMetrics.LoadSample()
        for host in [self] + shards {
            load.queued += host.loop.queuedWorkCount
            let sample: @Sendable () -> (Int, RequestCounts) = { (host.requestsInFlight, host.counts.snapshot()) }
            let (inFlight, requests) =
                host.loop.inEventLoop ? sample() : (try? await host.loop.submit(sample)) ?? (0, RequestCounts())
            load.inFlight += inFlight
            load.requests.add(requests)
        }
        return load
    }
}
