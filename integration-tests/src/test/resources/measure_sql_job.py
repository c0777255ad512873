"""SQL job for MeasureInPlaceTest: the same CPU-bound DataFrame query (hashing a range of longs, summed) run again
and again, as a recurring job's stages are. No Python worker runs: all the work is in the executor JVM's task
threads, which placement binds. With "until-stopped" it runs until the plugin's guard stops placement (read from the
driver's plugin metrics, measure.placing) and a few queries more, or until the deadline. Prints the number of queries,
of different answers (1: placed, control and stopped alike) and whether placement was still on, as a CHIPLET-PROBE
line. With a fifth argument, a file's path, it then waits for that file (at most 5 minutes) before it stops Spark, so
that a test can read the executors' threads from /proc while they live."""
import os
import sys
import time

from pyspark.sql import SparkSession


def placing(spark):
    jvm = spark.sparkContext._jvm
    sources = jvm.org.apache.spark.SparkEnv.get().metricsSystem().getSourcesByName("plugin.io.chiplet.spark.ChipletPlugin")
    if sources.isEmpty():
        return True
    gauge = sources.head().metricRegistry().getGauges().get("measure.placing")
    return gauge is None or gauge.getValue() == 1


def main():
    seconds = float(sys.argv[1])
    rows = int(sys.argv[2])
    partitions = int(sys.argv[3])
    until_stopped = len(sys.argv) > 4 and sys.argv[4] == "until-stopped"
    release = sys.argv[5] if len(sys.argv) > 5 else None
    spark = SparkSession.builder.appName("chiplet-measure-sql").getOrCreate()
    answers = set()
    count = 0
    after_stop = None
    deadline = time.time() + seconds
    while time.time() < deadline and (after_stop is None or after_stop > 0):
        # A new DataFrame each time: Spark reuses a DataFrame's shuffle output, so the same one would run its map
        # stage once only.
        query = spark.range(0, rows, 1, partitions).selectExpr("sum(hash(id, id * 7, id % 13, cast(id as string))) as h")
        answers.add(query.collect()[0]["h"])
        count += 1
        if after_stop is not None:
            after_stop -= 1
        elif until_stopped and not placing(spark):
            after_stop = 5
    print("CHIPLET-PROBE result queries=%d answers=%d placing=%s checksum=%d" % (count, len(answers), placing(spark), answers.pop()), flush=True)
    if release is not None:
        waited_until = time.time() + 300
        while not os.path.exists(release) and time.time() < waited_until:
            time.sleep(0.1)
    spark.stop()


if __name__ == "__main__":
    main()
