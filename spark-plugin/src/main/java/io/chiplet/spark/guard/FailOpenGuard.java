package io.chiplet.spark.guard;

import io.chiplet.failopen.FailOpenSwitch;
import org.slf4j.Logger;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Keeps the plugin's failures out of Spark: every entry point runs through here, and the first failure (a bad
 * setting, a missing sysfs, a refused syscall, a bug of ours) logs one warning and switches this side of the
 * plugin off, leaving Spark as it would be without it. The mechanism is core's {@link FailOpenSwitch}, the one the
 * Trino plugin uses; this names a side of the Spark plugin and what Spark does without it.
 */
public final class FailOpenGuard
{
    private final String where;
    private final FailOpenSwitch failOpen;

    public FailOpenGuard(Logger log, String where)
    {
        this(log, where, "Spark runs as without it");
    }

    /**
     * @param consequence what the warning says runs on once this is off: for a part of the plugin that goes off
     * while the rest keeps working
     */
    public FailOpenGuard(Logger log, String where, String consequence)
    {
        this.where = requireNonNull(where, "where is null");
        this.failOpen = new FailOpenSwitch(log, "Chiplet plugin disabled on " + where, consequence, cause -> {});
    }

    public boolean active()
    {
        return failOpen.active();
    }

    /** Switches off with the one warning a user sees. */
    public void disable(String cause)
    {
        failOpen.disable(cause);
    }

    /** Switches off without a warning: the user asked for it, or the driver already warned. */
    public void disableQuietly(String cause)
    {
        failOpen.disableQuietly("Chiplet plugin off on " + where + ": " + requireNonNull(cause, "cause is null"));
    }

    public void run(String entryPoint, Runnable action)
    {
        failOpen.run(entryPoint, action);
    }

    /**
     * Runs even when switched off: undoing what an earlier call did (restoring a pinned thread, releasing a lease)
     * must not be skipped because something failed in between.
     */
    public void runAlways(String entryPoint, Runnable action)
    {
        failOpen.runAlways(entryPoint, action);
    }

    public <T> T call(String entryPoint, Supplier<T> action, T whenOff)
    {
        return failOpen.call(entryPoint, action, whenOff);
    }
}
