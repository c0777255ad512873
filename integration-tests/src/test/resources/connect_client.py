"""Spark Connect client for SparkConnectTest (a pip-installed pyspark[connect]): a Python UDF and a pandas UDF over
several partitions. Each row reports, from inside its Python worker, the worker's pid and Cpus_allowed_list; the
results are checked against the same functions run here, without Spark. Every observation is a CHIPLET-PROBE line."""
import os
import sys

import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.functions import pandas_udf, udf
from pyspark.sql.types import LongType, StringType

ROWS = 400
PARTITIONS = 4


def square_plus(x):
    return x * x + 7


def cpus():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Cpus_allowed_list:"):
                return line.split(":", 1)[1].strip()
    return "?"


def placed_square(x):
    return "%d|%s|%d" % (os.getpid(), cpus(), square_plus(x))


def halve_plus(values: pd.Series) -> pd.Series:
    return values // 2 + 3


def main():
    spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
    # Made once the Connect session exists, so they are Connect UDFs.
    placed = udf(placed_square, StringType())
    halved = pandas_udf(halve_plus, LongType())
    df = spark.range(0, ROWS, 1, PARTITIONS)
    rows = df.select("id", placed("id").alias("r"), halved("id").alias("h")).collect()
    workers = {}
    squares = 0
    halves = 0
    for row in rows:
        pid, mask, value = row["r"].split("|")
        workers[pid] = mask
        assert int(value) == square_plus(row["id"]), row
        assert row["h"] == row["id"] // 2 + 3, row
        squares += int(value)
        halves += row["h"]
    print("CHIPLET-PROBE results rows=%d squares=%d halves=%d expectedSquares=%d expectedHalves=%d" % (
        len(rows), squares, halves, sum(square_plus(i) for i in range(ROWS)), sum(i // 2 + 3 for i in range(ROWS))))
    for pid, mask in sorted(workers.items()):
        print("CHIPLET-PROBE worker pid=%s cpus=%s" % (pid, mask))
    grouped = spark.range(0, 2000, 1, 4).groupBy((F.col("id") % 17).alias("k")).count().collect()
    print("CHIPLET-PROBE session partitions=%s groups=%d" % (spark.conf.get("spark.sql.shuffle.partitions"), len(grouped)))
    sys.stdout.flush()
    spark.stop()


if __name__ == "__main__":
    main()
