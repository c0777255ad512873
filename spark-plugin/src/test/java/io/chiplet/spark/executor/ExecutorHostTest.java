package io.chiplet.spark.executor;

import com.codahale.metrics.MetricRegistry;
import io.chiplet.spark.FakePluginContext;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExecutorHostTest
{
    @Test
    void usesThePluginContextsHostNameWhereSparkHasOne()
    {
        assertThat(ExecutorHost.of(new FakePluginContext(Map.of(), message -> null))).isEqualTo("node-1");
    }

    @Test
    void fallsBackWhereTheContextHasNoRpcAddress()
            throws Exception
    {
        // What a standalone (or YARN, Kubernetes) executor's context does: its RPC environment has no address.
        FakePluginContext fake = new FakePluginContext(Map.of(), message -> null);
        PluginContext clusterExecutor = new PluginContext()
        {
            @Override
            public MetricRegistry metricRegistry()
            {
                return fake.metricRegistry();
            }

            @Override
            public SparkConf conf()
            {
                return fake.conf();
            }

            @Override
            public String executorID()
            {
                return fake.executorID();
            }

            @Override
            public String hostname()
            {
                throw new NullPointerException("Cannot invoke \"org.apache.spark.rpc.RpcAddress.hostPort()\"");
            }

            @Override
            public Map<String, ResourceInformation> resources()
            {
                return fake.resources();
            }

            @Override
            public void send(Object message) {}

            @Override
            public Object ask(Object message)
            {
                return null;
            }
        };
        // No SparkEnv in a unit test: the machine's own name.
        assertThat(ExecutorHost.of(clusterExecutor)).isEqualTo(InetAddress.getLocalHost().getHostName());
    }
}
