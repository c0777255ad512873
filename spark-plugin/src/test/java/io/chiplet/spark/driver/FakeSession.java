package io.chiplet.spark.driver;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A SparkSession's settings as a map: what {@code SET} and the builder put there. */
final class FakeSession
        implements SessionConf
{
    final Map<String, String> settings = new HashMap<>();

    FakeSession with(String key, String value)
    {
        settings.put(key, value);
        return this;
    }

    @Override
    public Optional<String> get(String key)
    {
        return Optional.ofNullable(settings.get(key));
    }

    @Override
    public void set(String key, String value)
    {
        settings.put(key, value);
    }
}
