"""Driver for YarnDynamicAllocationTest (spark-submit --master yarn, dynamic allocation from no executors, at most
two). Argument: a control directory where the test writes the files the steps wait for. Every observation is a
CHIPLET-PROBE line on stdout.

1. blocked: 8 tasks that each wait for <control>/released: two executors start for the backlog and hold their
   tasks while the test kills one of them (kill -9) and watches its replacement start;
2. idle: every executor is released once idle; it reports, waits for <control>/idle-checked and stops."""
import os
import sys
import time

from pyspark.sql import SparkSession

PARTITIONS = "spark.sql.shuffle.partitions"


def say(kind, **fields):
    print("CHIPLET-PROBE %s %s" % (kind, " ".join("%s=%s" % item for item in fields.items())))
    sys.stdout.flush()


def executors(spark):
    # The driver is one of the infos.
    return len(spark.sparkContext._jsc.sc().statusTracker().getExecutorInfos()) - 1


def wait_for(control, name):
    deadline = time.time() + 180
    while not os.path.exists(os.path.join(control, name)):
        if time.time() > deadline:
            raise SystemExit("the test never wrote " + name)
        time.sleep(0.1)


def main():
    control = sys.argv[1]
    spark = SparkSession.builder.appName("chiplet-yarn-dynamic-allocation").getOrCreate()
    spark.sql("SELECT 1")

    def blocked(index, rows):
        deadline = time.time() + 180
        while not os.path.exists(os.path.join(control, "released")) and time.time() < deadline:
            time.sleep(0.1)
        yield sum(rows)

    total = sum(spark.sparkContext.parallelize(range(800), 8).mapPartitionsWithIndex(blocked).collect())
    say("busy", round=1, executors=executors(spark), partitions=spark.conf.get(PARTITIONS), total=total)

    deadline = time.time() + 120
    while executors(spark) > 0 and time.time() < deadline:
        time.sleep(0.2)
    say("idle", executors=executors(spark), partitions=spark.conf.get(PARTITIONS))
    wait_for(control, "idle-checked")
    spark.stop()


if __name__ == "__main__":
    main()
