"""SQL job for MeasureInPlaceTest: the same CPU-bound DataFrame query (hashing a range of longs, summed) run again
and again for a given number of seconds, as a recurring job's stages are. No Python worker runs: all the work is in
the executor JVM's task threads, which placement binds. Prints each answer's checksum and the query count as
CHIPLET-PROBE lines; the answer of every run must equal the one computed here in Python-free SQL once more at the
end with the plugin's placement irrelevant (a deterministic sum)."""
import sys
import time

from pyspark.sql import SparkSession


def main():
    seconds = float(sys.argv[1])
    rows = int(sys.argv[2])
    partitions = int(sys.argv[3])
    spark = SparkSession.builder.appName("chiplet-measure-sql").getOrCreate()
    answers = set()
    count = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        # A new DataFrame each time: Spark reuses a DataFrame's shuffle output, so the same one would run its map
        # stage once only.
        query = spark.range(0, rows, 1, partitions).selectExpr("sum(hash(id, id * 7, id % 13, cast(id as string))) as h")
        answers.add(query.collect()[0]["h"])
        count += 1
    print("CHIPLET-PROBE result queries=%d answers=%d checksum=%d" % (count, len(answers), answers.pop()), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
