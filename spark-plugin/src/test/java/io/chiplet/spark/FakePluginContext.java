package io.chiplet.spark;

import com.codahale.metrics.MetricRegistry;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.skew.SpreadHints;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A plugin context whose driver is a function: what an executor asks, and what it answered. */
public final class FakePluginContext
        implements PluginContext
{
    private final SparkConf conf;
    private final Function<Object, Object> driver;
    private final MetricRegistry registry = new MetricRegistry();
    private final List<Object> asked = new CopyOnWriteArrayList<>();
    private final List<Object> measureMessages = new CopyOnWriteArrayList<>();

    private final String executorId;

    public FakePluginContext(Map<String, String> conf, Function<Object, Object> driver)
    {
        this("7", conf, driver);
    }

    public FakePluginContext(String executorId, Map<String, String> conf, Function<Object, Object> driver)
    {
        this.executorId = executorId;
        this.conf = new SparkConf(false);
        conf.forEach(this.conf::set);
        this.driver = driver;
    }

    @Override
    public MetricRegistry metricRegistry()
    {
        return registry;
    }

    @Override
    public SparkConf conf()
    {
        return conf;
    }

    @Override
    public String executorID()
    {
        return executorId;
    }

    @Override
    public String hostname()
    {
        return "node-1";
    }

    @Override
    public Map<String, ResourceInformation> resources()
    {
        return Map.of();
    }

    @Override
    public void send(Object message)
    {
        asked.add(message);
    }

    @Override
    public Object ask(Object message)
    {
        // On the wire only strings: what any executor's class loader can decode.
        if (!(message instanceof String)) {
            throw new IllegalArgumentException("a plugin message must be a String, got " + message.getClass().getName());
        }
        java.util.Optional<Object> measured = io.chiplet.spark.measure.MeasureMessages.decode(message);
        if (measured.isPresent()) {
            measureMessages.add(measured.get());
            // An executor in executor mode asks for its arm: answered where the driver function answers it with a message.
            if (measured.get() instanceof io.chiplet.spark.measure.ExecutorArmRequest && driver.apply(measured.get()) instanceof String reply) {
                return reply;
            }
            // The measurement's periodic arm reports: not what most tests look at; the driver places on.
            return io.chiplet.spark.measure.MeasureMessages.encode(new io.chiplet.measure.Directive(0.1, true));
        }
        Object decoded = PluginMessages.decode(message);
        asked.add(decoded);
        Object reply = driver.apply(decoded);
        return reply instanceof SpreadHints hints ? PluginMessages.encode(hints) : reply;
    }

    /** The measurement's messages the executor asked with (arm reports, its arm request), decoded. */
    public List<Object> measureMessages()
    {
        return List.copyOf(measureMessages);
    }

    public List<Object> asked()
    {
        return List.copyOf(asked);
    }
}
