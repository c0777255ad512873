package io.chiplet.spark.executor;

import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.PluginContext;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The executor's host name for its report to the driver. {@link PluginContext#hostname()} reads the executor's RPC
 * address, which a real executor (any cluster manager but local mode) does not have: its RPC environment is a
 * client's, and the call fails with a {@code NullPointerException} inside Spark. The block manager's id holds the
 * host the executor registered with.
 */
final class ExecutorHost
{
    private ExecutorHost() {}

    static String of(PluginContext context)
    {
        try {
            return context.hostname();
        }
        catch (RuntimeException e) {
            // Fall through: a cluster executor.
        }
        SparkEnv env = SparkEnv.get();
        if (env != null && env.blockManager() != null && env.blockManager().blockManagerId() != null) {
            return env.blockManager().blockManagerId().host();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
