package io.chiplet.spark.driver;

import java.util.Optional;

/** One SparkSession's runtime settings, as the driver plugin reads and sets them (a fake in tests). */
public interface SessionConf
{
    Optional<String> get(String key);

    void set(String key, String value);
}
