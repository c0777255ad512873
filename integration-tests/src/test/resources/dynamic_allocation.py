"""Driver for StandaloneDynamicAllocationTest: executors come (a backlog of tasks), go (idle), and come again.
Every observation is a CHIPLET-PROBE line on stdout."""
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


def busy(spark, round):
    def work(index, rows):
        time.sleep(1.0)
        yield sum(rows)

    total = sum(spark.sparkContext.parallelize(range(800), 8).mapPartitionsWithIndex(work).collect())
    say("busy", round=round, executors=executors(spark), partitions=spark.conf.get(PARTITIONS), total=total)


def idle(spark):
    deadline = time.time() + 90
    while executors(spark) > 0 and time.time() < deadline:
        time.sleep(0.5)
    say("idle", executors=executors(spark), partitions=spark.conf.get(PARTITIONS))


def main():
    spark = SparkSession.builder.appName("chiplet-dynamic-allocation").getOrCreate()
    spark.sql("SELECT 1")
    busy(spark, 1)
    idle(spark)
    busy(spark, 2)
    spark.stop()


if __name__ == "__main__":
    main()
