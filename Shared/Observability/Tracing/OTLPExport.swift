import VerticalsOTLP

// The one seam between tracing and VerticalsOTLP: the runtime adds the exporter the
// environment names to its recorder (a ``SpanExporting``), and the exporter reads each record
// (an `OTLPSpan`) on its own thread. No other file imports VerticalsOTLP.

extension OTLPExporter: SpanExporting {
    /// Queues `record` for the collector, as any other `OTLPSpan`.
    public func export(_ record: SpanRecord) {
        export(record as any OTLPSpan)
    }

    /// The exporter's counts, for `daemon.metrics`.
    public var exportStatistics: SpanExportStatistics? {
        let counts = statistics
        return SpanExportStatistics(queued: counts.queued, exported: counts.exported, dropped: counts.dropped)
    }
}

extension SpanRecord: OTLPSpan {
    /// ``identity``'s trace id.
    public var traceID: (high: UInt64, low: UInt64) { (identity.traceHigh, identity.traceLow) }
    /// ``identity``'s span id.
    public var spanID: UInt64 { identity.spanID }
    /// ``identity``'s parent span id; 0 for a root.
    public var parentSpanID: UInt64 { identity.parentSpanID }
    /// The wire error code's name when the span failed.
    public var failure: String? { code.map { "\($0)" } }
}

extension TraceRecorder {
    /// Adds the OTLP exporter `environment` names (`OTEL_EXPORTER_OTLP_ENDPOINT` and its kin), if
    /// it names one; throws when what it names is not usable.
    public func addExporter(environment: [String: String]) throws {
        if let exporter = try OTLPExporter.from(environment: environment, service: service) {
            add(exporter: exporter)
        }
    }
}
