package io.chiplet.trino;

import org.slf4j.Logger;

import static java.util.Objects.requireNonNull;

/**
 * Keeps one part of the plugin's failures out of Trino: the first failure (a bad setting, an unreadable file, a bug
 * of ours) logs one warning naming the cause and switches that part off, leaving Trino as it would be without it.
 */
public final class FailOpen
{
    private final Logger log;
    private final String part;
    private final String whenOff;
    private volatile boolean off;

    /**
     * @param part what is switched off, as the warning names it ("chiplet session defaults")
     * @param whenOff what Trino does instead ("Trino's own defaults apply")
     */
    public FailOpen(Logger log, String part, String whenOff)
    {
        this.log = requireNonNull(log, "log is null");
        this.part = requireNonNull(part, "part is null");
        this.whenOff = requireNonNull(whenOff, "whenOff is null");
    }

    public boolean active()
    {
        return !off;
    }

    public synchronized void disable(String cause)
    {
        requireNonNull(cause, "cause is null");
        if (!off) {
            off = true;
            log.warn("{} off, {}: {}", part, whenOff, cause);
        }
    }
}
