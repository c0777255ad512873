/*
 * The C baseline for PinBenchmark: the bare syscalls, the limit any binding can reach.
 * One round trip = sched_getcpu, sched_getaffinity, sched_setaffinity to that one CPU, sched_setaffinity back,
 * exactly the steps of PinBenchmark.ffmRawPinRestore. Also getcpu and sched_getcpu alone.
 * Usage: pin_baseline [iterations]; prints "<name> <ns/op>" lines.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void check(int result, const char *call)
{
    if (result != 0) {
        perror(call);
        exit(1);
    }
}

static void pin_restore(void)
{
    cpu_set_t previous, one;
    int cpu = sched_getcpu();
    check(sched_getaffinity(0, sizeof(previous), &previous), "sched_getaffinity");
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    check(sched_setaffinity(0, sizeof(one), &one), "sched_setaffinity");
    check(sched_setaffinity(0, sizeof(previous), &previous), "sched_setaffinity");
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 1000000;
    volatile unsigned sink = 0;

    for (long i = 0; i < iterations / 10; i++) {
        pin_restore();
    }
    double start = now_ns();
    for (long i = 0; i < iterations; i++) {
        pin_restore();
    }
    printf("pin_restore %.1f\n", (now_ns() - start) / iterations);

    start = now_ns();
    for (long i = 0; i < iterations; i++) {
        unsigned cpu, node;
        getcpu(&cpu, &node);
        sink += cpu + node;
    }
    printf("getcpu %.1f\n", (now_ns() - start) / iterations);

    start = now_ns();
    for (long i = 0; i < iterations; i++) {
        sink += sched_getcpu();
    }
    printf("sched_getcpu %.1f\n", (now_ns() - start) / iterations);
    return 0;
}
