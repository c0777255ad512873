package io.chiplet.engine;

/** The engines chiplet-jvm adapts; each has a dialect package below this one that says its settings in its own words. */
public enum Engine
{
    SPARK, TRINO
}
