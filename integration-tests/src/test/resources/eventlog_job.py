"""PySpark job for ChipletEventLogTest: a map stage of N partitions (each some 100 ms of Python work) and a
shuffle stage, enough tasks for the measurement to compare and long enough for executors to send their counts.
Prints CHIPLET-PROBE result lines on the driver's stdout; with a third argument, waits for that file to exist before
it stops (so that a test can look at the live UI)."""
import os
import sys
import time

from pyspark import SparkContext


def work(index, numbers):
    total = 0
    for n in numbers:
        total += n * n
    time.sleep(0.1)
    yield (index % 4, total)


def main():
    partitions = int(sys.argv[1])
    executors = int(sys.argv[2])
    sc = SparkContext(appName="chiplet-eventlog-job")
    deadline = time.time() + 60
    while len(sc._jsc.sc().statusTracker().getExecutorInfos()) < executors + 1 and time.time() < deadline:
        time.sleep(0.1)
    sums = sc.parallelize(range(partitions * 100), partitions).mapPartitionsWithIndex(work).reduceByKey(lambda a, b: a + b, 4).collect()
    print("CHIPLET-PROBE result keys=%d total=%d" % (len(sums), sum(v for _, v in sums)))
    sys.stdout.flush()
    # With a release file named, the application stays up (its live UI open) until the test has looked at it.
    if len(sys.argv) > 3:
        deadline = time.time() + 180
        while not os.path.exists(sys.argv[3]) and time.time() < deadline:
            time.sleep(0.2)
    sc.stop()


if __name__ == "__main__":
    main()
