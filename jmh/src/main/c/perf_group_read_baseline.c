/*
 * C baseline for CounterBenchmark.groupReadThreeSoftwareEvents: the same perf_event group (task-clock,
 * page-faults, minor-faults, user mode only, PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING) read
 * with one read(2) in a loop; prints nanoseconds per read. This is the floor the FFM path can approach.
 *
 *   cc -O2 -o /tmp/perf_group_read_baseline jmh/src/main/c/perf_group_read_baseline.c
 *   /tmp/perf_group_read_baseline [iterations] [rounds]
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int open_event(uint64_t config, int group_fd)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = config;
    attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr.disabled = group_fd == -1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    int fd = (int) syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        perror("perf_event_open");
        exit(1);
    }
    return fd;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 1000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    int leader = open_event(PERF_COUNT_SW_TASK_CLOCK, -1);
    int faults = open_event(PERF_COUNT_SW_PAGE_FAULTS, leader);
    int minor = open_event(PERF_COUNT_SW_PAGE_FAULTS_MIN, leader);
    ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    uint64_t buffer[6];
    uint64_t sink = 0;
    for (int round = 0; round < rounds; round++) {
        double start = now_ns();
        for (long i = 0; i < iterations; i++) {
            if (read(leader, buffer, sizeof(buffer)) != sizeof(buffer)) {
                perror("read");
                return 1;
            }
            sink += buffer[3];
        }
        printf("round %d: %.1f ns/read\n", round, (now_ns() - start) / iterations);
    }
    close(minor);
    close(faults);
    close(leader);
    return sink == 42;
}
