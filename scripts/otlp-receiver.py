#!/usr/bin/env python3
"""A tiny OTLP/HTTP (protobuf) trace receiver for the tracing export test.

Usage: otlp-receiver.py PORT_FILE SPANS_FILE [--stall]
Listens on 127.0.0.1 on a free port (written to PORT_FILE once listening), decodes each POST to
/v1/traces as an ExportTraceServiceRequest with the reference classes (opentelemetry-proto), and
appends one tab-separated line per span to SPANS_FILE: service, name, OTLP kind (1 internal, 2 server,
3 client), trace id, span id, parent span id (empty for a root), status code (1 ok, 2 error), duration ns.
With --stall it accepts connections and never answers (a collector that hangs).
"""
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

port_file, spans_file = sys.argv[1], sys.argv[2]
stall = "--stall" in sys.argv[3:]


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if stall:
            time.sleep(3600)
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        with open(spans_file, "a") as out:
            for resource in request.resource_spans:
                service = next(
                    (a.value.string_value for a in resource.resource.attributes if a.key == "service.name"), "")
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        out.write("\t".join([
                            service, span.name, str(span.kind), span.trace_id.hex(), span.span_id.hex(),
                            span.parent_span_id.hex(), str(span.status.code),
                            str(span.end_time_unix_nano - span.start_time_unix_nano),
                        ]) + "\n")
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
with open(port_file + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
import os
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
