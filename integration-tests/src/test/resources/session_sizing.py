"""Driver for StandaloneSessionSizingTest: the application's SparkSessions exist before any executor does (workers
start afterwards, as on YARN, Kubernetes and in notebooks). Steps wait for control files the test writes; every
observation is a CHIPLET-PROBE line on stdout."""
import os
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

PARTITIONS = "spark.sql.shuffle.partitions"


def say(kind, **fields):
    print("CHIPLET-PROBE %s %s" % (kind, " ".join("%s=%s" % item for item in fields.items())))
    sys.stdout.flush()


def wait_for(control, name):
    deadline = time.time() + 150
    while not os.path.exists(os.path.join(control, name)):
        if time.time() > deadline:
            raise SystemExit("the test never wrote " + name)
        time.sleep(0.2)


def shuffle(session):
    """A grouped count; AQE is off (the application's own setting), so the shuffle runs the session's partitions."""
    df = session.range(0, 2000, 1, 4).groupBy((F.col("id") % 17).alias("k")).count()
    total = sum(row["count"] for row in df.collect())
    return df.rdd.getNumPartitions(), total


def main():
    control = sys.argv[1]
    spark = SparkSession.builder.appName("chiplet-session-sizing").getOrCreate()
    spark.sql("SELECT 1")  # analysed, no job: there are no executors yet
    mine = spark.newSession()
    mine.conf.set(PARTITIONS, "7")
    mine.sql("SELECT 1")
    say("session", partitions=spark.conf.get(PARTITIONS))

    wait_for(control, "workers-started")
    say("sized", partitions=spark.conf.get(PARTITIONS), mine=mine.conf.get(PARTITIONS), parallelism=spark.sparkContext.defaultParallelism)
    partitions, total = shuffle(spark)
    mine_partitions, mine_total = shuffle(mine)
    say("shuffle", partitions=partitions, total=total, mine=mine_partitions, mineTotal=mine_total)
    late = spark.newSession()
    late.sql("SELECT 1")
    say("late", partitions=late.conf.get(PARTITIONS))

    wait_for(control, "executor-replaced")
    partitions, total = shuffle(spark)
    say("after", partitions=spark.conf.get(PARTITIONS), parallelism=spark.sparkContext.defaultParallelism, shuffle=partitions, total=total)
    spark.stop()


if __name__ == "__main__":
    main()
