package io.chiplet.trino.measure;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves. */
final class MutableClock
        extends Clock
{
    private long millis;

    MutableClock(long millis)
    {
        this.millis = millis;
    }

    synchronized void set(long to)
    {
        millis = to;
    }

    synchronized void advance(long by)
    {
        millis += by;
    }

    @Override
    public synchronized long millis()
    {
        return millis;
    }

    @Override
    public Instant instant()
    {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone()
    {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone)
    {
        return this;
    }
}
