package io.chiplet.wire;

import static java.util.Objects.requireNonNull;

/** A message this version cannot read, and why: another plugin version's, not ours at all, or malformed (named). */
public record Unreadable(String why)
{
    public Unreadable
    {
        requireNonNull(why, "why is null");
    }
}
