/*
 * uv_echo: the C baseline of `make bench` — a raw length-prefixed echo on libuv over a Unix
 * socket, with its own latency and throughput clients. No envelope, no codec, no tasks: the
 * floor our Swift stack (Wire + EventLoop + ServiceKit) is measured against in the same run.
 *
 *   uv_echo server PATH [OFFSET VALUE]
 *       listens on PATH; every complete frame (4-byte big-endian length, then that many
 *       bytes) is written back as it came, all frames of one read in one write. With OFFSET
 *       and VALUE, the payload byte at OFFSET is set to VALUE first: the driver uses it to turn
 *       our request envelopes into responses, so our client can be timed against this server.
 *   uv_echo latency PATH PAYLOAD COUNT OUTFILE
 *       one frame of PAYLOAD bytes in flight; after COUNT/10 warm-up round trips, writes the
 *       next COUNT round-trip times (nanoseconds, native-endian uint64) to OUTFILE.
 *   uv_echo latency-frame PATH FRAMEFILE COUNT OUTFILE
 *       as latency, but the frame sent is FRAMEFILE's bytes (one whole frame, prefix included):
 *       the driver gives it one of our request frames, so our server can be timed against this client.
 *   uv_echo throughput PATH PAYLOAD CONNECTIONS DEPTH SECONDS
 *   uv_echo throughput-frame PATH FRAMEFILE CONNECTIONS DEPTH SECONDS  (our frames, ids 1…DEPTH)
 *       CONNECTIONS connections with DEPTH frames in flight each; after a 0.25 s warm-up,
 *       counts answered frames for SECONDS and prints "requests=N seconds=S". When the
 *       environment's VT_BENCH_SERVER_PID names the server, the line ends with
 *       " server_cpu=S client_cpu=S": the CPU seconds each spent while counting (the server's
 *       /proc/PID/stat utime + stime, the client's own getrusage), read as the count starts and ends.
 *
 * PATH may also be tcp:IPV4:PORT (e.g. tcp:127.0.0.1:7400): the same echo over TCP loopback,
 * TCP_NODELAY on both ends, the baseline of the TCP rows.
 *
 * Built by `make bench`: gcc -O2 uv_echo.c $(pkg-config --cflags --libs libuv).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include <uv.h>

#define CHECK(expr)                                                                      \
    do {                                                                                 \
        int rc_ = (expr);                                                                \
        if (rc_ < 0) {                                                                   \
            fprintf(stderr, "uv_echo: %s: %s\n", #expr, uv_strerror(rc_));               \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* ---- shared: the address (a Unix socket path, or tcp:IPV4:PORT) ---- */

#define STREAM(c) ((uv_stream_t *)(void *)&(c)->h)

/* Parses tcp:IPV4:PORT into *addr; 0 for a Unix socket path. */
static int tcp_address(const char *path, struct sockaddr_in *addr) {
    if (strncmp(path, "tcp:", 4) != 0) return 0;
    char host[64];
    const char *colon = strrchr(path + 4, ':');
    size_t length = colon ? (size_t)(colon - (path + 4)) : 0;
    if (colon == NULL || length == 0 || length >= sizeof host) {
        fprintf(stderr, "uv_echo: bad address %s\n", path);
        exit(64);
    }
    memcpy(host, path + 4, length);
    host[length] = 0;
    if (uv_ip4_addr(host, atoi(colon + 1), addr) != 0) {
        fprintf(stderr, "uv_echo: bad address %s\n", path);
        exit(64);
    }
    return 1;
}

/* Initialises a connection's handle for the transport `path` names. */
static int init_stream(uv_loop_t *loop, void *handle, const char *path) {
    struct sockaddr_in addr;
    if (tcp_address(path, &addr)) return uv_tcp_init(loop, (uv_tcp_t *)handle);
    return uv_pipe_init(loop, (uv_pipe_t *)handle, 0);
}

static const char *server_path; /* the server's address, for its accepted connections' handles */

/* ---- shared: a connection with a growable inbound buffer ---- */

typedef struct conn {
    union { uv_pipe_t pipe; uv_tcp_t tcp; } h; /* a Unix socket or TCP, by the address */
    char *buf;
    size_t len, cap;
    size_t payload;  /* clients: the frame size they send */
    uint64_t sent_at; /* latency client: when the frame in flight was written */
} conn_t;

static void alloc_cb(uv_handle_t *handle, size_t suggested, uv_buf_t *out) {
    conn_t *c = handle->data;
    if (c->cap - c->len < 65536) {
        c->cap = c->cap * 2 + 65536;
        c->buf = realloc(c->buf, c->cap);
        if (c->buf == NULL) { fprintf(stderr, "uv_echo: out of memory\n"); exit(1); }
    }
    (void)suggested;
    *out = uv_buf_init(c->buf + c->len, (unsigned)(c->cap - c->len));
}

static void free_write(uv_write_t *req, int status) {
    (void)status;
    free(req->data);
    free(req);
}

/* Writes `len` bytes copied from `bytes`; a peer that went away only closes this connection. */
static int write_copy(conn_t *c, const char *bytes, size_t len) {
    uv_write_t *req = malloc(sizeof *req);
    char *copy = malloc(len);
    memcpy(copy, bytes, len);
    req->data = copy;
    uv_buf_t buf = uv_buf_init(copy, (unsigned)len);
    int rc = uv_write(req, STREAM(c), &buf, 1, free_write);
    if (rc < 0) {
        free(copy);
        free(req);
    }
    return rc;
}

/* The length of the complete frames at the start of c->buf, and how many there are. */
static size_t complete_frames(conn_t *c, size_t *count) {
    size_t at = 0;
    *count = 0;
    while (c->len - at >= 4) {
        const unsigned char *p = (const unsigned char *)c->buf + at;
        size_t n = ((size_t)p[0] << 24) | ((size_t)p[1] << 16) | ((size_t)p[2] << 8) | p[3];
        if (c->len - at < 4 + n) break;
        at += 4 + n;
        (*count)++;
    }
    return at;
}

static void consume(conn_t *c, size_t used) {
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
}

static void on_close_free(uv_handle_t *handle) {
    conn_t *c = handle->data;
    free(c->buf);
    free(c);
}

/* A frame of `payload` bytes, built once per connection. */
static char *make_frame(size_t payload) {
    char *frame = calloc(1, 4 + payload);
    frame[0] = (char)(payload >> 24);
    frame[1] = (char)(payload >> 16);
    frame[2] = (char)(payload >> 8);
    frame[3] = (char)payload;
    for (size_t i = 0; i < payload; i++) frame[4 + i] = (char)('a' + i % 26);
    return frame;
}

/* ---- server ---- */

/* `server PATH OFFSET VALUE`: the payload byte each answer has rewritten (OFFSET < 0: none). */
static long answer_offset = -1;
static unsigned char answer_value;

static void server_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    conn_t *c = stream->data;
    (void)buf;
    if (nread < 0) {
        uv_close((uv_handle_t *)stream, on_close_free);
        return;
    }
    c->len += (size_t)nread;
    size_t count;
    size_t used = complete_frames(c, &count);
    if (used > 0) {
        for (size_t at = 0; answer_offset >= 0 && at < used;) {
            const unsigned char *p = (const unsigned char *)c->buf + at;
            size_t n = ((size_t)p[0] << 24) | ((size_t)p[1] << 16) | ((size_t)p[2] << 8) | p[3];
            if ((size_t)answer_offset < n) c->buf[at + 4 + answer_offset] = (char)answer_value;
            at += 4 + n;
        }
        if (write_copy(c, c->buf, used) < 0) {
            uv_read_stop(stream);
            uv_close((uv_handle_t *)stream, on_close_free);
            return;
        }
        consume(c, used);
    }
}

static void on_connection(uv_stream_t *listener, int status) {
    CHECK(status);
    conn_t *c = calloc(1, sizeof *c);
    CHECK(init_stream(listener->loop, &c->h, server_path));
    uv_handle_set_data((uv_handle_t *)(void *)&c->h, c);
    CHECK(uv_accept(listener, STREAM(c)));
    struct sockaddr_in unused;
    if (tcp_address(server_path, &unused)) CHECK(uv_tcp_nodelay(&c->h.tcp, 1));
    CHECK(uv_read_start(STREAM(c), alloc_cb, server_read));
}

static int run_server(const char *path) {
    signal(SIGPIPE, SIG_IGN); /* a client that exits mid-write must not take the server down */
    uv_loop_t *loop = uv_default_loop();
    union { uv_pipe_t pipe; uv_tcp_t tcp; } listener;
    struct sockaddr_in addr;
    server_path = path;
    CHECK(init_stream(loop, &listener, path));
    if (tcp_address(path, &addr)) {
        CHECK(uv_tcp_bind(&listener.tcp, (const struct sockaddr *)&addr, 0));
    } else {
        remove(path);
        CHECK(uv_pipe_bind(&listener.pipe, path));
    }
    CHECK(uv_listen((uv_stream_t *)&listener, 1024, on_connection));
    return uv_run(loop, UV_RUN_DEFAULT);
}

/* ---- latency client ---- */

static struct {
    char *frame;
    size_t warmup, count, done;
    uint64_t *samples;
} lat;

static void latency_send(conn_t *c) {
    c->sent_at = uv_hrtime();
    uv_buf_t buf = uv_buf_init(lat.frame, (unsigned)(4 + c->payload));
    uv_write_t *req = malloc(sizeof *req);
    req->data = NULL;
    CHECK(uv_write(req, STREAM(c), &buf, 1, free_write));
}

/* A client's read: takes the complete answers off the buffer and returns how many there were. */
static size_t client_answers(conn_t *c, ssize_t nread) {
    if (nread < 0) { fprintf(stderr, "uv_echo: the server closed the connection\n"); exit(1); }
    c->len += (size_t)nread;
    size_t count;
    consume(c, complete_frames(c, &count));
    return count;
}

static void latency_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    conn_t *c = stream->data;
    (void)buf;
    if (client_answers(c, nread) == 0) return;
    uint64_t now = uv_hrtime();
    if (lat.done >= lat.warmup) lat.samples[lat.done - lat.warmup] = now - c->sent_at;
    if (++lat.done == lat.warmup + lat.count) {
        uv_read_stop(stream);
        uv_close((uv_handle_t *)stream, NULL);
        return;
    }
    latency_send(c);
}

/* ---- throughput client ---- */

static struct {
    char *frames; /* DEPTH frames back to back */
    size_t depth;
    uint64_t answered;
    int counting;
} tput;

static void throughput_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    conn_t *c = stream->data;
    (void)buf;
    size_t count = client_answers(c, nread);
    if (count == 0) return;
    if (tput.counting) tput.answered += count;
    /* Keep DEPTH in flight: one write of as many frames as were answered. */
    uv_buf_t out = uv_buf_init(tput.frames, (unsigned)(count * (4 + c->payload)));
    uv_write_t *req = malloc(sizeof *req);
    req->data = NULL;
    CHECK(uv_write(req, stream, &out, 1, free_write));
}

/* throughput-frame: DEPTH copies of one request frame of ours, correlation ids 1…DEPTH (a u64
 * big-endian at payload offset 2), each sent again, with its id, as its answer comes back. */
static size_t tput_frame_payload;

static void set_correlation(char *frame, const char *id) { memcpy(frame + 4 + 2, id, 8); }

static void throughput_frame_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    conn_t *c = stream->data;
    (void)buf;
    if (nread < 0) { fprintf(stderr, "uv_echo: the server closed the connection\n"); exit(1); }
    c->len += (size_t)nread;
    size_t frame = 4 + tput_frame_payload, at = 0, count = 0;
    char *out = NULL;
    while (c->len - at >= 4) {
        const unsigned char *p = (const unsigned char *)c->buf + at;
        size_t length = ((size_t)p[0] << 24) | ((size_t)p[1] << 16) | ((size_t)p[2] << 8) | p[3];
        if (c->len - at - 4 < length || length < 10) break;
        out = realloc(out, (count + 1) * frame);
        memcpy(out + count * frame, tput.frames, frame);
        set_correlation(out + count * frame, (const char *)p + 4 + 2);
        count++;
        at += 4 + length;
    }
    consume(c, at);
    if (count == 0) return;
    if (tput.counting) tput.answered += count;
    uv_write_t *req = malloc(sizeof *req);
    req->data = out;
    uv_buf_t bytes = uv_buf_init(out, (unsigned)(count * frame));
    CHECK(uv_write(req, stream, &bytes, 1, free_write));
}

static uint64_t tput_started;
static double tput_seconds;

/* The counting window's CPU at both ends (see the usage above): the server's pid, or 0. */
static struct {
    long server_pid;
    double server_at_start, client_at_start;
} window_cpu;

/* A process's CPU seconds from /proc/PID/stat (utime + stime, fields 14 and 15), or -1. */
static double process_cpu_seconds(long pid) {
    char path[64], stat[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t n = fread(stat, 1, sizeof stat - 1, file);
    fclose(file);
    stat[n] = 0;
    const char *after = strrchr(stat, ')'); /* past "pid (comm)" */
    unsigned long long user, system;
    if (!after || sscanf(after + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user, &system) != 2)
        return -1;
    return (double)(user + system) / (double)sysconf(_SC_CLK_TCK);
}

static double own_cpu_seconds(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static void on_warm(uv_timer_t *timer) {
    (void)timer;
    const char *server = getenv("VT_BENCH_SERVER_PID");
    window_cpu.server_pid = server ? atol(server) : 0;
    if (window_cpu.server_pid > 0) {
        window_cpu.server_at_start = process_cpu_seconds(window_cpu.server_pid);
        window_cpu.client_at_start = own_cpu_seconds();
    }
    tput.counting = 1;
    tput.answered = 0;
    tput_started = uv_hrtime();
}

static void on_done(uv_timer_t *timer) {
    double elapsed = (double)(uv_hrtime() - tput_started) / 1e9;
    if (window_cpu.server_pid > 0) {
        double client = own_cpu_seconds() - window_cpu.client_at_start;
        double server = process_cpu_seconds(window_cpu.server_pid) - window_cpu.server_at_start;
        printf("requests=%llu seconds=%.6f server_cpu=%.6f client_cpu=%.6f\n", (unsigned long long)tput.answered,
               elapsed, server, client);
    } else {
        printf("requests=%llu seconds=%.6f\n", (unsigned long long)tput.answered, elapsed);
    }
    fflush(stdout);
    (void)timer;
    exit(0);
}

/* ---- connecting ---- */

static int mode_throughput;

static void on_connect(uv_connect_t *req, int status) {
    conn_t *c = req->data;
    CHECK(status);
    free(req);
    if (mode_throughput) {
        CHECK(uv_read_start(STREAM(c), alloc_cb, tput_frame_payload ? throughput_frame_read : throughput_read));
        uv_buf_t out = uv_buf_init(tput.frames, (unsigned)(tput.depth * (4 + c->payload)));
        uv_write_t *w = malloc(sizeof *w);
        w->data = NULL;
        CHECK(uv_write(w, STREAM(c), &out, 1, free_write));
    } else {
        CHECK(uv_read_start(STREAM(c), alloc_cb, latency_read));
        latency_send(c);
    }
}

static conn_t *connect_to(uv_loop_t *loop, const char *path, size_t payload) {
    conn_t *c = calloc(1, sizeof *c);
    CHECK(init_stream(loop, &c->h, path));
    uv_handle_set_data((uv_handle_t *)(void *)&c->h, c);
    c->payload = payload;
    uv_connect_t *req = malloc(sizeof *req);
    req->data = c;
    struct sockaddr_in addr;
    if (tcp_address(path, &addr)) {
        CHECK(uv_tcp_nodelay(&c->h.tcp, 1));
        CHECK(uv_tcp_connect(req, &c->h.tcp, (const struct sockaddr *)&addr, on_connect));
    } else {
        uv_pipe_connect(req, &c->h.pipe, path, on_connect);
    }
    return c;
}

/* Reads FRAMEFILE (one whole frame) into lat.frame; returns its payload length, or 0 on error. */
static size_t load_frame(const char *file) {
    FILE *f = fopen(file, "rb");
    if (f == NULL) { perror("uv_echo: reading the frame file"); return 0; }
    unsigned char prefix[4];
    size_t payload = 0;
    if (fread(prefix, 1, 4, f) == 4) {
        payload = ((size_t)prefix[0] << 24) | ((size_t)prefix[1] << 16) | ((size_t)prefix[2] << 8) | prefix[3];
        lat.frame = malloc(4 + payload);
        memcpy(lat.frame, prefix, 4);
        if (fread(lat.frame + 4, 1, payload, f) != payload) payload = 0;
    }
    fclose(f);
    if (payload == 0) fprintf(stderr, "uv_echo: %s holds no whole frame\n", file);
    return payload;
}

static int run_latency(const char *path, size_t payload, size_t count, const char *out) {
    uv_loop_t *loop = uv_default_loop();
    if (lat.frame == NULL) lat.frame = make_frame(payload);
    lat.count = count;
    lat.warmup = count / 10;
    lat.samples = calloc(count, sizeof(uint64_t));
    connect_to(loop, path, payload);
    uv_run(loop, UV_RUN_DEFAULT);
    FILE *f = fopen(out, "wb");
    if (f == NULL || fwrite(lat.samples, sizeof(uint64_t), count, f) != count) {
        perror("uv_echo: writing the samples");
        return 1;
    }
    fclose(f);
    return 0;
}

/* Connects CONNECTIONS clients that keep tput.frames in flight; counts answers after a warm-up. */
static int drive_throughput(uv_loop_t *loop, const char *path, size_t payload, int connections, double seconds) {
    mode_throughput = 1;
    tput_seconds = seconds;
    for (int i = 0; i < connections; i++) connect_to(loop, path, payload);
    uv_timer_t warm, done;
    uv_timer_init(loop, &warm);
    uv_timer_init(loop, &done);
    uv_timer_start(&warm, on_warm, 250, 0);
    uv_timer_start(&done, on_done, 250 + (uint64_t)(seconds * 1000), 0);
    return uv_run(loop, UV_RUN_DEFAULT);
}

static int run_throughput(const char *path, size_t payload, int connections, size_t depth, double seconds) {
    uv_loop_t *loop = uv_default_loop();
    char *frame = make_frame(payload);
    tput.depth = depth;
    tput.frames = malloc(depth * (4 + payload));
    for (size_t i = 0; i < depth; i++) memcpy(tput.frames + i * (4 + payload), frame, 4 + payload);
    return drive_throughput(loop, path, payload, connections, seconds);
}

/* Our request frame from FRAMEFILE, DEPTH of them in flight on each connection (ids 1…DEPTH). */
static int run_throughput_frame(const char *path, const char *file, int connections, size_t depth, double seconds) {
    size_t payload = load_frame(file);
    if (payload == 0) return 1;
    tput_frame_payload = payload;
    uv_loop_t *loop = uv_default_loop();
    tput.depth = depth;
    tput.frames = malloc(depth * (4 + payload));
    for (size_t i = 0; i < depth; i++) {
        char *frame = tput.frames + i * (4 + payload);
        memcpy(frame, lat.frame, 4 + payload);
        uint64_t id = i + 1;
        char be[8];
        for (int b = 0; b < 8; b++) be[b] = (char)(id >> (56 - 8 * b));
        set_correlation(frame, be);
    }
    return drive_throughput(loop, path, payload, connections, seconds);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "server") == 0) return run_server(argv[2]);
    if (argc == 5 && strcmp(argv[1], "server") == 0) {
        answer_offset = atol(argv[3]);
        answer_value = (unsigned char)atoi(argv[4]);
        return run_server(argv[2]);
    }
    if (argc == 6 && strcmp(argv[1], "latency-frame") == 0) {
        size_t payload = load_frame(argv[3]);
        if (payload == 0) return 1;
        return run_latency(argv[2], payload, strtoul(argv[4], NULL, 10), argv[5]);
    }
    if (argc == 6 && strcmp(argv[1], "latency") == 0)
        return run_latency(argv[2], strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10), argv[5]);
    if (argc == 7 && strcmp(argv[1], "throughput-frame") == 0)
        return run_throughput_frame(argv[2], argv[3], atoi(argv[4]), strtoul(argv[5], NULL, 10), atof(argv[6]));
    if (argc == 7 && strcmp(argv[1], "throughput") == 0)
        return run_throughput(argv[2], strtoul(argv[3], NULL, 10), atoi(argv[4]), strtoul(argv[5], NULL, 10),
                              atof(argv[6]));
    fprintf(stderr,
            "usage: uv_echo server PATH [OFFSET VALUE]\n"
            "       uv_echo latency PATH PAYLOAD COUNT OUTFILE\n"
            "       uv_echo latency-frame PATH FRAMEFILE COUNT OUTFILE\n"
            "       uv_echo throughput PATH PAYLOAD CONNECTIONS DEPTH SECONDS\n"
            "       uv_echo throughput-frame PATH FRAMEFILE CONNECTIONS DEPTH SECONDS\n");
    return 64;
}
