package io.chiplet.measure;

import java.util.Locale;

/** Which side of the in-place comparison a unit of work (a task, a time window) ran on. */
public enum Arm
{
    /** Placed by the plugin: pinned, memory bound, as configured. */
    PLACED,
    /** Run exactly as without the plugin: the thread's own mask, no memory policy. */
    CONTROL;

    /** The name in reports and messages: {@code placed}, {@code control}. */
    public String jsonName()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
