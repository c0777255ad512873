package io.chiplet.settings;

import java.util.Locale;

/** How the in-place measurement draws its arms: the {@code measure.design} setting ({@link PluginSettings#MEASURE_DESIGN}). */
public enum MeasureDesign
{
    /** Switchback windows per host: every worker of a host places or not for a window of time (the default). */
    WINDOW,
    /** A control share of each stage's tasks, beside placed ones on the same executors (Spark only; opt-in: interference). */
    TASK;

    /** The name a setting gives: {@code window} or {@code task}. */
    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
