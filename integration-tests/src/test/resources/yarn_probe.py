"""Probe for YarnSparkTest, run with spark-submit --master yarn (client or cluster deploy mode) and the probe jar on
--jars. Arguments: partitions executors holdFile.

It waits for the executors, then runs two jobs of `partitions` tasks each:
- jvm: a Java SQL function (io.chiplet.it.probe.Probe$ThreadCpus) that each JVM task thread runs, reporting the
  executor, its pid, the thread's tid and the thread's own Cpus_allowed_list read mid-task;
- python: a mapPartitions whose Python worker reports its own mask, its daemon's, its executor JVM's pid and the
  chiplet plugin's task property.
Every observation is a CHIPLET-PROBE line on the driver's stdout (the AM container's stdout in cluster mode). The
checksum covers both jobs' sums. Then it prints `holding` and waits for holdFile, so the test can look at the
running containers, and stops."""
import os
import sys
import time

from pyspark import TaskContext
from pyspark.sql import SparkSession
from pyspark.sql.types import StringType


def say(kind, text):
    print("CHIPLET-PROBE %s %s" % (kind, text))
    sys.stdout.flush()


def field(pid, name):
    with open("/proc/%s/status" % pid) as status:
        for line in status:
            if line.startswith(name + ":"):
                return line.split(":", 1)[1].strip()
    return "?"


def python_task(index, numbers):
    total = 0
    for n in numbers:
        total += n * n
    time.sleep(0.2)
    daemon = os.getppid()
    prop = TaskContext.get().getLocalProperty("spark.chiplet.task.cpus")
    yield "partition=%d pid=%d cpus=%s daemon=%s jvm=%s property=%s sum=%d" % (
        index, os.getpid(), field("self", "Cpus_allowed_list"), field(daemon, "Cpus_allowed_list"),
        field(daemon, "PPid"), prop if prop else "none", total)


def main():
    partitions = int(sys.argv[1])
    executors = int(sys.argv[2])
    hold = sys.argv[3]
    spark = SparkSession.builder.appName("chiplet-yarn-probe").getOrCreate()
    sc = spark.sparkContext
    deadline = time.time() + 120
    while len(sc._jsc.sc().statusTracker().getExecutorInfos()) < executors + 1 and time.time() < deadline:
        time.sleep(0.1)

    spark.udf.registerJavaFunction("thread_cpus", "io.chiplet.it.probe.Probe$ThreadCpus", StringType())
    checksum = 0
    rows = spark.range(0, partitions, 1, partitions).selectExpr("id", "thread_cpus(id) AS probe").collect()
    for row in sorted(rows, key=lambda r: r["id"]):
        say("jvm", "partition=%d %s" % (row["id"], row["probe"]))
        checksum = (checksum * 31 + int(row["probe"].rsplit("sum=", 1)[1])) & 0xFFFFFFFFFFFF
    for line in sc.parallelize(range(partitions * 100), partitions).mapPartitionsWithIndex(python_task).collect():
        say("python", line)
        checksum = (checksum * 31 + int(line.rsplit("sum=", 1)[1])) & 0xFFFFFFFFFFFF
    # After the jobs: every executor has reported its chiplets to the driver by now.
    say("session", "partitions=%s parallelism=%d executors=%d" % (
        spark.conf.get("spark.sql.shuffle.partitions"), sc.defaultParallelism,
        len(sc._jsc.sc().statusTracker().getExecutorInfos()) - 1))
    say("result", "checksum=%d executors=%d" % (checksum, len(sc._jsc.sc().statusTracker().getExecutorInfos()) - 1))

    say("holding", "application=%s" % sc.applicationId)
    deadline = time.time() + 180
    while not os.path.exists(hold) and time.time() < deadline:
        time.sleep(0.1)
    spark.stop()


if __name__ == "__main__":
    main()
