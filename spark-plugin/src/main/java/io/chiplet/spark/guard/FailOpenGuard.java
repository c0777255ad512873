package io.chiplet.spark.guard;

import org.slf4j.Logger;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Keeps the plugin's failures out of Spark: every entry point runs through here, and the first failure (a bad
 * setting, a missing sysfs, a refused syscall, a bug of ours) logs one warning and switches this side of the
 * plugin off, leaving Spark as it would be without it. JVM errors (out of memory and the like) are not ours and
 * pass through.
 */
public final class FailOpenGuard
{
    private final Logger log;
    private final String where;
    private final String consequence;
    private volatile boolean disabled;

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
        this.log = requireNonNull(log, "log is null");
        this.where = requireNonNull(where, "where is null");
        this.consequence = requireNonNull(consequence, "consequence is null");
    }

    public boolean active()
    {
        return !disabled;
    }

    /** Switches off with the one warning a user sees. */
    public synchronized void disable(String cause)
    {
        if (!disabled) {
            disabled = true;
            log.warn("Chiplet plugin disabled on {}, {}: {}", where, consequence, cause);
        }
    }

    /** Switches off without a warning: the user asked for it, or the driver already warned. */
    public synchronized void disableQuietly(String cause)
    {
        if (!disabled) {
            disabled = true;
            log.info("Chiplet plugin off on {}: {}", where, cause);
        }
    }

    public void run(String entryPoint, Runnable action)
    {
        call(entryPoint, () -> {
            action.run();
            return null;
        }, null);
    }

    /**
     * Runs even when switched off: undoing what an earlier call did (restoring a pinned thread, releasing a lease)
     * must not be skipped because something failed in between.
     */
    public void runAlways(String entryPoint, Runnable action)
    {
        try {
            action.run();
        }
        catch (VirtualMachineError e) {
            throw e;
        }
        catch (Throwable e) {
            log.debug("Chiplet plugin failure in {}", entryPoint, e);
            disable("%s failed: %s".formatted(entryPoint, e));
        }
    }

    public <T> T call(String entryPoint, Supplier<T> action, T whenOff)
    {
        if (disabled) {
            return whenOff;
        }
        try {
            return action.get();
        }
        catch (VirtualMachineError e) {
            throw e;
        }
        catch (Throwable e) {
            if (!disabled) {
                log.debug("Chiplet plugin failure in {}", entryPoint, e);
            }
            disable("%s failed: %s".formatted(entryPoint, e));
            return whenOff;
        }
    }
}
