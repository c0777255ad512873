package io.chiplet.spark.demo;

import org.apache.spark.launcher.JavaModuleOptions;

/**
 * Prints the JVM options Spark's own launcher gives every JVM it starts ({@code --add-opens} and the like), for
 * {@code bin/chiplet demo}, which starts Spark without Spark's scripts.
 */
public final class SparkJvmOptions
{
    private SparkJvmOptions() {}

    public static void main(String[] args)
    {
        System.out.println(JavaModuleOptions.defaultModuleOptions());
    }
}
