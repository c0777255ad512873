/*
 * The C baseline for PinBenchmark: the bare syscalls, the limit any binding can reach.
 * One round trip = sched_getcpu, sched_getaffinity, sched_setaffinity to that one CPU, sched_setaffinity back,
 * exactly the steps of PinBenchmark.ffmRawPinRestore. Also getcpu and sched_getcpu alone.
 *
 * Also built as a library for PinBenchmark's same-run C rows (pin_restore_n, sched_getcpu_n below).
 *
 * Usage: pin_baseline [iterations]. Prints "<name> mean <ns/op> median <ns/op>". Operations are timed in batches; the
 * median batch is robust to the preemptions a shared machine adds, the mean matches JMH's average time.
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

static volatile unsigned sink;

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

static void get_cpu_and_node(void)
{
    unsigned cpu, node;
    getcpu(&cpu, &node);
    sink += cpu + node;
}

static void sched_get_cpu(void)
{
    sink += sched_getcpu();
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void measure(const char *name, void (*op)(void), long iterations, long batch)
{
    long batches = iterations / batch;
    double *times = malloc(sizeof(double) * batches);
    for (long i = 0; i < iterations / 10; i++) {
        op();
    }
    double total = 0;
    for (long b = 0; b < batches; b++) {
        double start = now_ns();
        for (long i = 0; i < batch; i++) {
            op();
        }
        times[b] = (now_ns() - start) / batch;
        total += times[b];
    }
    qsort(times, batches, sizeof(double), compare);
    printf("%s mean %.1f median %.1f\n", name, total / batches, times[batches / 2]);
    free(times);
}

/*
 * Built with -shared -DPIN_BASELINE_LIBRARY, PinBenchmark calls these through FFM in the same JMH run as the Java paths
 * (cPinRestore, cSchedGetcpu): n operations per call, so the one downcall is spread over them.
 */
long pin_restore_n(long n)
{
    for (long i = 0; i < n; i++) {
        pin_restore();
    }
    return n;
}

long sched_getcpu_n(long n)
{
    for (long i = 0; i < n; i++) {
        sched_get_cpu();
    }
    return sink;
}

#ifndef PIN_BASELINE_LIBRARY
int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 1000000;
    measure("pin_restore", pin_restore, iterations / 10, 10);
    measure("getcpu", get_cpu_and_node, iterations, 1000);
    measure("sched_getcpu", sched_get_cpu, iterations, 1000);
    return 0;
}
#endif
