package io.chiplet.spark.settings;

import org.apache.spark.SparkConf;
import scala.Tuple2;

import java.util.HashMap;
import java.util.Map;

public final class SparkConfs
{
    private SparkConfs() {}

    public static Map<String, String> toMap(SparkConf conf)
    {
        Map<String, String> entries = new HashMap<>();
        for (Tuple2<String, String> entry : conf.getAll()) {
            entries.put(entry._1(), entry._2());
        }
        return entries;
    }
}
