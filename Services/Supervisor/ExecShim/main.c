/* vt-exec: in progress (issue 4). Execs its arguments unchanged. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: vt-exec PROGRAM [ARG...]\n");
        return 64;
    }
    execv(argv[1], argv + 1);
    perror("vt-exec: exec");
    return 127;
}
