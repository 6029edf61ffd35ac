/*
 * vt-exec: what uv_spawn cannot do between fork and exec, done in a tiny program that then
 * execs the service in its own place (same pid).
 *
 *   vt-exec [--setsid] [--pdeathsig SIG] [--parent PID] [--nice N]
 *           [--rlimit NAME=SOFT[:HARD]]... [--cgroup DIR]...
 *           [--user UID --group GID [--groups GID[,GID]...]] [--close-fds-from N]
 *           -- PROGRAM [ARG...]
 *
 * In this order:
 *   1. --setsid: a new session and process group (a stop signals the whole group, so no
 *      grandchild is left). Already a session leader (uv_spawn's UV_PROCESS_DETACHED) is fine.
 *   2. --pdeathsig SIG: prctl(PR_SET_PDEATHSIG), then getppid() is compared with the parent's
 *      pid (--parent PID, else $VT_EXEC_PARENT, else the parent when vt-exec started): if the
 *      parent died before prctl, no signal will ever come, so exit 1 at once. Linux sends the
 *      signal when the *thread* that forked the child ends: spawn from a thread that lives as
 *      long as the supervisor.
 *   3. --rlimit NAME=SOFT[:HARD] (repeatable): NAME is NOFILE, NPROC, DATA, CORE, STACK, AS,
 *      CPU or FSIZE; a value is a number with an optional K, M or G (×1024) or "unlimited";
 *      one value sets soft and hard alike (as systemd's LimitNOFILE= does).
 *   4. --nice N: setpriority(PRIO_PROCESS, 0, N).
 *   5. --cgroup DIR (repeatable: cgroup v1 has a hierarchy per controller): writes its own pid
 *      into DIR/cgroup.procs.
 *   6. --user UID --group GID (both or neither; numbers, resolved by the supervisor): becomes
 *      that user, for good, in this order: setgroups() to exactly the --groups list (none
 *      without it: the supplementary groups of the supervisor are dropped), setgid(GID),
 *      setuid(UID) (real, effective and saved ids alike, so no way back), then
 *      prctl(PR_SET_NO_NEW_PRIVS) (no set-user-ID program or file capability can raise it
 *      again). After the limits and the cgroup join, which need the supervisor's privileges;
 *      a change of uid clears PR_SET_PDEATHSIG, so step 2 is done again after it, parent check
 *      included. Also checked: getuid()/geteuid() are UID afterwards.
 *   7. LISTEN_PID (when LISTEN_FDS is set) and WATCHDOG_PID (when WATCHDOG_USEC is set)
 *      become its own pid: the pid that will exec, as sd_listen_fds(3) expects.
 *   8. Unblocks every signal, then closes every fd >= 3 + LISTEN_FDS (or >= N with
 *      --close-fds-from N): close_range(2), else each fd listed in /proc/self/fd.
 *   9. execv(PROGRAM) when it holds a '/', else execvp (a $PATH lookup).
 *
 * VT_EXEC_PARENT is removed from the environment the program sees.
 * A failing step prints "vt-exec: <step>: <reason>" to stderr and exits 1; a failed exec
 * exits 127; a malformed command line exits 64 (EX_USAGE), a supervisor bug to tell apart.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_RLIMITS 16
#define MAX_CGROUPS 4
#define MAX_GROUPS 16

struct limit {
    int resource;
    struct rlimit value;
};

struct options {
    int setsid;
    int pdeathsig;
    pid_t parent;
    int has_nice;
    int nice;
    struct limit limits[MAX_RLIMITS];
    int limit_count;
    const char *cgroups[MAX_CGROUPS];
    int cgroup_count;
    long uid;        /* -1: stay the supervisor's user */
    long gid;        /* -1: with uid -1 */
    gid_t groups[MAX_GROUPS];
    int group_count;
    long close_from; /* -1: 3 + LISTEN_FDS */
    char **program;  /* PROGRAM ARG... NULL */
};

static void usage(const char *problem) {
    fprintf(stderr,
            "vt-exec: %s\n"
            "usage: vt-exec [--setsid] [--pdeathsig SIG] [--parent PID] [--nice N]\n"
            "               [--rlimit NAME=SOFT[:HARD]]... [--cgroup DIR]...\n"
            "               [--user UID --group GID [--groups GID[,GID]...]] [--close-fds-from N]\n"
            "               -- PROGRAM [ARG...]\n",
            problem);
    exit(64);
}

static void fail(const char *step, int error) {
    fprintf(stderr, "vt-exec: %s: %s\n", step, strerror(error));
    exit(1);
}

/* A whole decimal number in [min, max], or usage(). */
static long whole_number(const char *text, long min, long max, const char *what) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        char message[160];
        snprintf(message, sizeof message, "%s: not a number in range: '%s'", what, text);
        usage(message);
    }
    return value;
}

/* A name and the number it stands for, in a table looked up by `named_number`. */
struct named_number {
    const char *name;
    int number;
};

/* The number `text` names in `table` (of `count` entries), case aside and with or without
 * `prefix`; -1 when it names none. */
static int named_number(const struct named_number *table, size_t count, const char *text, const char *prefix) {
    size_t length = strlen(prefix);
    const char *name = strncasecmp(text, prefix, length) == 0 ? text + length : text;
    for (size_t i = 0; i < count; i++) {
        if (strcasecmp(name, table[i].name) == 0) return table[i].number;
    }
    return -1;
}

static const struct named_number signal_names[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"KILL", SIGKILL},
    {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"TERM", SIGTERM}, {"ALRM", SIGALRM},
};

static int parse_signal(const char *text) {
    int number = named_number(signal_names, sizeof signal_names / sizeof signal_names[0], text, "SIG");
    return number >= 0 ? number : (int)whole_number(text, 1, 64, "--pdeathsig");
}

static const struct named_number limit_names[] = {
    {"NOFILE", RLIMIT_NOFILE}, {"NPROC", RLIMIT_NPROC}, {"DATA", RLIMIT_DATA}, {"CORE", RLIMIT_CORE},
    {"STACK", RLIMIT_STACK},   {"AS", RLIMIT_AS},       {"CPU", RLIMIT_CPU},   {"FSIZE", RLIMIT_FSIZE},
};

static rlim_t parse_limit_value(const char *text) {
    if (strcasecmp(text, "unlimited") == 0 || strcasecmp(text, "infinity") == 0) return RLIM_INFINITY;
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || text[0] == '-') usage("--rlimit: a value is a number or 'unlimited'");
    unsigned long long factor = 1;
    switch (*end) {
    case '\0': break;
    case 'K': case 'k': factor = 1ULL << 10; end++; break;
    case 'M': case 'm': factor = 1ULL << 20; end++; break;
    case 'G': case 'g': factor = 1ULL << 30; end++; break;
    default: usage("--rlimit: a value's unit is K, M or G");
    }
    if (*end != '\0' || value > ULLONG_MAX / factor) usage("--rlimit: a value is a number or 'unlimited'");
    return (rlim_t)(value * factor);
}

/* NAME=SOFT[:HARD] */
static struct limit parse_limit(char *text) {
    char *equals = strchr(text, '=');
    if (equals == NULL) usage("--rlimit takes NAME=SOFT[:HARD], e.g. NOFILE=1024:4096");
    *equals = '\0';
    struct limit limit = {
        .resource = named_number(limit_names, sizeof limit_names / sizeof limit_names[0], text, "RLIMIT_")};
    if (limit.resource < 0) usage("--rlimit: NAME is one of NOFILE, NPROC, DATA, CORE, STACK, AS, CPU, FSIZE");
    char *colon = strchr(equals + 1, ':');
    if (colon != NULL) *colon = '\0';
    limit.value.rlim_cur = parse_limit_value(equals + 1);
    limit.value.rlim_max = colon != NULL ? parse_limit_value(colon + 1) : limit.value.rlim_cur;
    if (limit.value.rlim_max != RLIM_INFINITY &&
        (limit.value.rlim_cur == RLIM_INFINITY || limit.value.rlim_cur > limit.value.rlim_max)) {
        usage("--rlimit: SOFT must not exceed HARD");
    }
    return limit;
}

/* GID[,GID]... into options->groups. */
static void parse_groups(struct options *options, char *text) {
    for (char *item = strtok(text, ","); item != NULL; item = strtok(NULL, ",")) {
        if (options->group_count == MAX_GROUPS) usage("--groups: too many groups");
        options->groups[options->group_count++] = (gid_t)whole_number(item, 0, UINT_MAX - 1, "--groups");
    }
}

static struct options parse(int argc, char **argv) {
    struct options options = {.close_from = -1, .parent = 0, .uid = -1, .gid = -1};
    int i = 1;
    for (; i < argc; i++) {
        const char *flag = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(flag, "--") == 0) {
            i++;
            break;
        } else if (strcmp(flag, "--setsid") == 0) {
            options.setsid = 1;
            continue;
        }
        if (value == NULL) {
            char message[160];
            snprintf(message, sizeof message, "%s needs a value, or is not an option", flag);
            usage(message);
        }
        if (strcmp(flag, "--pdeathsig") == 0) {
            options.pdeathsig = parse_signal(value);
        } else if (strcmp(flag, "--parent") == 0) {
            options.parent = (pid_t)whole_number(value, 1, INT_MAX, "--parent");
        } else if (strcmp(flag, "--nice") == 0) {
            options.has_nice = 1;
            options.nice = (int)whole_number(value, -20, 19, "--nice");
        } else if (strcmp(flag, "--rlimit") == 0) {
            if (options.limit_count == MAX_RLIMITS) usage("too many --rlimit options");
            options.limits[options.limit_count++] = parse_limit(argv[i + 1]);
        } else if (strcmp(flag, "--cgroup") == 0) {
            if (options.cgroup_count == MAX_CGROUPS) usage("too many --cgroup options");
            options.cgroups[options.cgroup_count++] = value;
        } else if (strcmp(flag, "--user") == 0) {
            options.uid = whole_number(value, 0, UINT_MAX - 1, "--user");
        } else if (strcmp(flag, "--group") == 0) {
            options.gid = whole_number(value, 0, UINT_MAX - 1, "--group");
        } else if (strcmp(flag, "--groups") == 0) {
            parse_groups(&options, argv[i + 1]);
        } else if (strcmp(flag, "--close-fds-from") == 0) {
            options.close_from = whole_number(value, 3, INT_MAX, "--close-fds-from");
        } else {
            char message[160];
            snprintf(message, sizeof message, "unknown option '%s' (put the program after --)", flag);
            usage(message);
        }
        i++;
    }
    if ((options.uid < 0) != (options.gid < 0)) usage("--user and --group go together");
    if (options.group_count > 0 && options.uid < 0) usage("--groups needs --user and --group");
    if (i >= argc) usage("no program given after --");
    options.program = argv + i;
    return options;
}

static void set_own_pid(const char *variable) {
    char pid[24];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    if (setenv(variable, pid, 1) != 0) fail(variable, errno);
}

static void write_cgroup(const char *directory) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/cgroup.procs", directory) >= (int)sizeof path) fail("cgroup", ENAMETOOLONG);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "vt-exec: cgroup: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    char pid[24];
    int length = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (write(fd, pid, (size_t)length) != length) {
        fprintf(stderr, "vt-exec: cgroup: cannot join %s: %s\n", directory, strerror(errno));
        exit(1);
    }
    close(fd);
}

/* Closes every fd >= first. Build with -DVT_EXEC_NO_CLOSE_RANGE to exercise the fallback. */
static void close_fds_from(int first) {
#if defined(SYS_close_range) && !defined(VT_EXEC_NO_CLOSE_RANGE)
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0U) == 0) return;
    if (errno != ENOSYS && errno != EINVAL) fail("close_range", errno);
#endif
    DIR *directory = opendir("/proc/self/fd");
    if (directory == NULL) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = first; fd < (max > 0 ? max : 1024); fd++) close((int)fd);
        return;
    }
    int own = dirfd(directory);
    int fds[1024];
    int count;
    do { /* Closing while reading the directory is unspecified: collect, close, read again. */
        count = 0;
        rewinddir(directory);
        struct dirent *entry;
        while ((entry = readdir(directory)) != NULL && count < (int)(sizeof fds / sizeof fds[0])) {
            if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
            int fd = atoi(entry->d_name);
            if (fd >= first && fd != own) fds[count++] = fd;
        }
        for (int i = 0; i < count; i++) close(fds[i]);
    } while (count == (int)(sizeof fds / sizeof fds[0]));
    closedir(directory);
}

/* PR_SET_PDEATHSIG, then: is the parent still the one we expect? If not, no signal will come. */
static void set_pdeathsig(int signal, pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, signal) != 0) fail("pdeathsig", errno);
    if (getppid() != parent) {
        fprintf(stderr, "vt-exec: pdeathsig: parent %ld is already gone\n", (long)parent);
        exit(1);
    }
}

/* Step 6: supplementary groups, group, user, no new privileges; in that order (setgroups and
 * setgid need the privilege setuid gives up). */
static void become_user(uid_t uid, gid_t gid, const gid_t *groups, int count) {
    if (setgroups((size_t)count, count > 0 ? groups : NULL) != 0) fail("setgroups", errno);
    if (setresgid(gid, gid, gid) != 0) fail("setgid", errno);
    if (setresuid(uid, uid, uid) != 0) fail("setuid", errno);
    if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid) fail("setuid", EPERM);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("no_new_privs", errno);
}

int main(int argc, char **argv) {
    pid_t starting_parent = getppid();
    struct options options = parse(argc, argv);

    if (options.setsid && setsid() < 0 && !(errno == EPERM && getsid(0) == getpid())) fail("setsid", errno);

    pid_t parent = options.parent;
    const char *given = getenv("VT_EXEC_PARENT");
    if (parent == 0 && given != NULL) parent = (pid_t)whole_number(given, 1, INT_MAX, "VT_EXEC_PARENT");
    if (parent == 0) parent = starting_parent;
    if (options.pdeathsig != 0) set_pdeathsig(options.pdeathsig, parent);
    unsetenv("VT_EXEC_PARENT");

    for (int i = 0; i < options.limit_count; i++) {
        if (setrlimit(options.limits[i].resource, &options.limits[i].value) != 0) fail("rlimit", errno);
    }

    if (options.has_nice && setpriority(PRIO_PROCESS, 0, options.nice) != 0) fail("nice", errno);

    for (int i = 0; i < options.cgroup_count; i++) write_cgroup(options.cgroups[i]);

    if (options.uid >= 0) {
        become_user((uid_t)options.uid, (gid_t)options.gid, options.groups, options.group_count);
        if (options.pdeathsig != 0) set_pdeathsig(options.pdeathsig, parent); /* cleared by setuid */
    }

    long listen_fds = 0;
    const char *listen = getenv("LISTEN_FDS");
    if (listen != NULL) {
        char *end = NULL;
        errno = 0;
        listen_fds = strtol(listen, &end, 10);
        if (errno != 0 || end == listen || *end != '\0' || listen_fds < 0 || listen_fds > INT_MAX - 3) {
            fprintf(stderr, "vt-exec: listen_fds: LISTEN_FDS is not a count: '%s'\n", listen);
            exit(1);
        }
        set_own_pid("LISTEN_PID");
    }
    if (getenv("WATCHDOG_USEC") != NULL) set_own_pid("WATCHDOG_PID");

    sigset_t all;
    sigemptyset(&all);
    if (sigprocmask(SIG_SETMASK, &all, NULL) != 0) fail("sigmask", errno);

    close_fds_from(options.close_from >= 0 ? (int)options.close_from : 3 + (int)listen_fds);

    if (strchr(options.program[0], '/') != NULL) {
        execv(options.program[0], options.program);
    } else {
        execvp(options.program[0], options.program);
    }
    fprintf(stderr, "vt-exec: exec %s: %s\n", options.program[0], strerror(errno));
    return 127;
}
