"""PySpark probe for SparkSubmitTest: a Python mapPartitions over N partitions; every task reports, from inside
its Python worker, the worker's own Cpus_allowed_list, its daemon's, the executor JVM's pid and the chiplet
plugin's task property, as CHIPLET-PROBE lines on the driver's stdout."""
import os
import sys
import time

from pyspark import SparkContext, TaskContext


def field(pid, name):
    with open("/proc/%s/status" % pid) as status:
        for line in status:
            if line.startswith(name + ":"):
                return line.split(":", 1)[1].strip()
    return "?"


def task(index, numbers):
    total = 0
    for n in numbers:
        total += n * n
    time.sleep(0.1)
    daemon = os.getppid()
    jvm = field(daemon, "PPid")
    prop = TaskContext.get().getLocalProperty("spark.chiplet.task.cpus")
    yield "partition=%d pid=%d cpus=%s affinity=%s daemon=%s jvm=%s property=%s sum=%d" % (
        index, os.getpid(), field("self", "Cpus_allowed_list"), ",".join(str(c) for c in sorted(os.sched_getaffinity(0))),
        field(daemon, "Cpus_allowed_list"), jvm, prop if prop else "none", total)


def main():
    partitions = int(sys.argv[1])
    executors = int(sys.argv[2])
    sc = SparkContext(appName="chiplet-pyspark-probe")
    deadline = time.time() + 60
    while len(sc._jsc.sc().statusTracker().getExecutorInfos()) < executors + 1 and time.time() < deadline:
        time.sleep(0.1)
    lines = sc.parallelize(range(partitions * 100), partitions).mapPartitionsWithIndex(task).collect()
    checksum = 0
    for line in lines:
        print("CHIPLET-PROBE task " + line)
        checksum = checksum * 31 + int(line.rsplit("sum=", 1)[1]) & 0xFFFFFFFFFFFF
    print("CHIPLET-PROBE result partitions=%d checksum=%d" % (len(lines), checksum))
    sys.stdout.flush()
    sc.stop()


if __name__ == "__main__":
    main()
