// zlib (Debian zlib1g-dev) for svc-supervisor's compression of rotated logs.
#include <zlib.h>
