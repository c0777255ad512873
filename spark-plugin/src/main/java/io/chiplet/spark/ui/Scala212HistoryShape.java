package io.chiplet.spark.ui;

import org.apache.spark.SparkConf;
import org.apache.spark.status.ElementTrackingStore;

/**
 * {@code AppHistoryServerPlugin.createListeners} as Spark on Scala 2.12 declares it (returning
 * {@code scala.collection.Seq}; 2.13 returns {@code scala.collection.immutable.Seq}). Implementing both makes javac
 * emit a bridge method of this shape, so that one class serves the History Servers of Spark 3.5 and 4.x.
 */
interface Scala212HistoryShape
{
    scala.collection.Seq<org.apache.spark.scheduler.SparkListener> createListeners(SparkConf conf, ElementTrackingStore store);
}
